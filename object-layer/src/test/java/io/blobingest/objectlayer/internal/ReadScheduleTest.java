package io.blobingest.objectlayer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadScheduleTest {

    @Test
    void partsHoldConsecutiveReadsOfAtLeastThePartSizeAndTheRangesTheyCover() {
        ReadSchedule schedule = new ReadSchedule(
                List.of(span(0, 10), span(10, 10), span(30, 10), span(50, 10), span(70, 5)),
                List.of(span(0, 20), span(30, 10), span(50, 10), span(70, 5)));

        List<ReadSchedule> parts = schedule.split(20);

        assertThat(parts).containsExactly(
                new ReadSchedule(List.of(span(0, 10), span(10, 10)), List.of(span(0, 20))),
                new ReadSchedule(List.of(span(30, 10), span(50, 10)), List.of(span(30, 10), span(50, 10))),
                new ReadSchedule(List.of(span(70, 5)), List.of(span(70, 5))));
    }

    @Test
    void aRangeReadByTwoReadsIsNeverCutBetweenParts() {
        // A 30-byte range cut by the coalescer into reads of at most 16 bytes.
        ReadSchedule schedule = new ReadSchedule(
                List.of(span(0, 30), span(40, 8)),
                List.of(span(0, 16), span(16, 14), span(40, 8)));

        List<ReadSchedule> parts = schedule.split(10);

        assertThat(parts).containsExactly(
                new ReadSchedule(List.of(span(0, 30)), List.of(span(0, 16), span(16, 14))),
                new ReadSchedule(List.of(span(40, 8)), List.of(span(40, 8))));
    }

    @Test
    void aRangeInsideALongerOneStaysInItsPart() {
        ReadSchedule schedule = new ReadSchedule(
                List.of(span(0, 40), span(4, 4), span(50, 10)),
                List.of(span(0, 20), span(20, 20), span(50, 10)));

        assertThat(schedule.split(1)).extracting(ReadSchedule::ranges)
                .containsExactly(List.of(span(0, 40), span(4, 4)), List.of(span(50, 10)));
    }

    @Test
    void aScheduleSmallerThanOnePartOrWithoutReadsIsOnePart() {
        ReadSchedule schedule = new ReadSchedule(List.of(span(0, 10), span(30, 10)), List.of(span(0, 10), span(30, 10)));

        assertThat(schedule.split(1L << 24)).containsExactly(schedule);
        ReadSchedule nothingToRead = new ReadSchedule(List.of(), List.of());
        assertThat(nothingToRead.split(16)).containsExactly(nothingToRead);
    }

    private static ByteSpan span(long offset, long length) {
        return new ByteSpan(offset, length);
    }
}
