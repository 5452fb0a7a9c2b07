package io.blobingest.objectlayer.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RangeCoalescerTest {

    private final RangeCoalescer coalescer = new RangeCoalescer(100, 1000);

    private static ByteSpan span(long offset, long length) {
        return new ByteSpan(offset, length);
    }

    @Test
    void adjacentRangesBecomeOneRead() {
        ReadSchedule schedule = coalescer.schedule(List.of(span(10, 5), span(15, 5), span(20, 5)));

        assertThat(schedule.reads()).containsExactly(span(10, 15));
    }

    @Test
    void aHoleOfExactlyTheLimitIsReadThroughAndOneByteMoreSplits() {
        assertThat(coalescer.schedule(List.of(span(0, 10), span(110, 10))).reads())
                .containsExactly(span(0, 120));
        assertThat(coalescer.schedule(List.of(span(0, 10), span(111, 10))).reads())
                .containsExactly(span(0, 10), span(111, 10));
    }

    @Test
    void aHoleWiderThanEightKibIsReadThroughOnlyWhileTheReadStaysAtLeastHalfWanted() {
        RangeCoalescer wide = new RangeCoalescer(256 * 1024, 16 * 1024 * 1024);
        int kib = 1024;

        // Sparse: 34 KiB blobs 200 KiB apart, as a random sample of small blobs from large packs.
        assertThat(wide.schedule(List.of(span(0, 34 * kib), span(234 * kib, 34 * kib)))
                        .reads())
                .containsExactly(span(0, 34 * kib), span(234 * kib, 34 * kib));
        // Dense: the same blobs one blob's length apart, and a hole of at most 8 KiB whatever the blobs.
        assertThat(wide.schedule(List.of(span(0, 34 * kib), span(68 * kib, 34 * kib)))
                        .reads())
                .containsExactly(span(0, 102 * kib));
        assertThat(wide.schedule(List.of(span(0, 100), span(100 + 8 * kib, 100)))
                        .reads())
                .containsExactly(span(0, 200 + 8 * kib));
        // The holes of the whole read count: a third range after a second wide hole starts a read of its own.
        assertThat(wide.schedule(List.of(span(0, 40 * kib), span(80 * kib, 40 * kib), span(200 * kib, 10 * kib)))
                        .reads())
                .containsExactly(span(0, 120 * kib), span(200 * kib, 10 * kib));
    }

    @Test
    void rangesAreSortedByOffsetWhateverTheirOrder() {
        ReadSchedule schedule = coalescer.schedule(List.of(span(500, 10), span(0, 10), span(250, 10)));

        assertThat(schedule.ranges()).containsExactly(span(0, 10), span(250, 10), span(500, 10));
        assertThat(schedule.reads()).containsExactly(span(0, 10), span(250, 10), span(500, 10));
    }

    @Test
    void identicalRangesAreWantedOnce() {
        ReadSchedule schedule = coalescer.schedule(List.of(span(0, 10), span(0, 10), span(0, 10)));

        assertThat(schedule.ranges()).containsExactly(span(0, 10));
        assertThat(schedule.reads()).containsExactly(span(0, 10));
    }

    @Test
    void overlappingAndContainedRangesMerge() {
        ReadSchedule schedule = coalescer.schedule(List.of(span(0, 50), span(10, 5), span(40, 30)));

        assertThat(schedule.reads()).containsExactly(span(0, 70));
    }

    @Test
    void emptyRangesNeedNoRead() {
        ReadSchedule schedule = coalescer.schedule(List.of(span(0, 0), span(5000, 0)));

        assertThat(schedule.ranges()).isEmpty();
        assertThat(schedule.reads()).isEmpty();
    }

    @Test
    void aMergedSpanIsCutIntoReadsOfAtMostTheMaximum() {
        ReadSchedule schedule = coalescer.schedule(List.of(span(0, 600), span(600, 600), span(1200, 300)));

        assertThat(schedule.reads()).containsExactly(span(0, 1000), span(1000, 500));
    }

    @Test
    void aSingleRangeLongerThanTheMaximumIsCutToo() {
        assertThat(coalescer.schedule(List.of(span(7, 2500))).reads())
                .containsExactly(span(7, 1000), span(1007, 1000), span(2007, 500));
    }

    @Test
    void everyReadHoldsAWantedByte() {
        RangeCoalescer tight = new RangeCoalescer(9, 10);
        List<ByteSpan> wanted = List.of(span(0, 1), span(10, 1), span(20, 1), span(29, 1));

        ReadSchedule schedule = tight.schedule(wanted);

        assertThat(schedule.reads())
                .allSatisfy(read -> assertThat(wanted)
                        .anySatisfy(range -> assertThat(range.offset() < read.end() && read.offset() < range.end())
                                .isTrue()));
    }

    @Test
    void theMaximumMustExceedTheHoleLimit() {
        assertThatThrownBy(() -> new RangeCoalescer(100, 100)).hasMessageContaining("hole limit < max read length");
        assertThatThrownBy(() -> new RangeCoalescer(-1, 100)).hasMessageContaining("0 <= hole limit");
    }
}
