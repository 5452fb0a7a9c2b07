package io.blobingest.objectlayer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.ForwardingReadableObject;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RangeFetcherTest {

    @TempDir
    Path root;

    private byte[] content() {
        byte[] bytes = new byte[5000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    private Map<ByteSpan, byte[]> fetch(RangeCoalescer coalescer, List<ByteSpan> ranges) throws IOException {
        Path file = Files.write(root.resolve("object.bin"), content());
        try (ReadableObject object = new LocalBlobStorage().open(file.toUri())) {
            return RangeFetcher.fetch(object, coalescer.schedule(ranges));
        }
    }

    @Test
    void everyRangeGetsItsBytesWhenReadsSpanSeveralRangesAndCutThroughThem() throws IOException {
        List<ByteSpan> ranges = List.of(
                new ByteSpan(0, 700),
                new ByteSpan(650, 100),
                new ByteSpan(800, 1500),
                new ByteSpan(2300, 1),
                new ByteSpan(4000, 999));

        Map<ByteSpan, byte[]> bytes = fetch(new RangeCoalescer(100, 512), ranges);

        for (ByteSpan range : ranges) {
            assertThat(bytes.get(range))
                    .as("range %s", range)
                    .isEqualTo(Arrays.copyOfRange(content(), (int) range.offset(), (int) range.end()));
        }
    }

    @Test
    void overlappingRangesEachGetTheirOwnArray() throws IOException {
        ByteSpan outer = new ByteSpan(100, 200);
        ByteSpan inner = new ByteSpan(150, 50);

        Map<ByteSpan, byte[]> bytes = fetch(new RangeCoalescer(0, 4096), List.of(outer, inner));

        assertThat(bytes.get(inner)).isEqualTo(Arrays.copyOfRange(bytes.get(outer), 50, 100));
    }

    @Test
    void partlyOverlappingRangesBothGetTheirBytes() throws IOException {
        ByteSpan earlier = new ByteSpan(100, 200);
        ByteSpan later = new ByteSpan(250, 150);

        Map<ByteSpan, byte[]> bytes = fetch(new RangeCoalescer(0, 4096), List.of(earlier, later));

        assertThat(bytes.get(earlier)).isEqualTo(Arrays.copyOfRange(content(), 100, 300));
        assertThat(bytes.get(later)).isEqualTo(Arrays.copyOfRange(content(), 250, 400));
    }

    @Test
    void aMergedReadIsOneScatteredReadStraightIntoTheRangesOwnArrays() throws IOException {
        Path file = Files.write(root.resolve("object.bin"), content());
        ByteSpan first = new ByteSpan(10, 100);
        ByteSpan second = new ByteSpan(150, 200);
        List<List<ScatterTarget>> scattered = new ArrayList<>();
        Map<ByteSpan, byte[]> bytes;
        try (ReadableObject local = new LocalBlobStorage().open(file.toUri())) {
            ReadableObject object = new ForwardingReadableObject(local) {
                @Override
                public void readFully(long position, byte[] buffer, int offset, int length) {
                    throw new AssertionError("a merged read goes through readScattered");
                }

                @Override
                public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
                    scattered.add(targets);
                    super.readScattered(position, targets);
                }
            };
            bytes = RangeFetcher.fetch(object, new RangeCoalescer(100, 4096).schedule(List.of(second, first)));
        }

        assertThat(scattered).singleElement().satisfies(targets -> {
            assertThat(targets).extracting(ScatterTarget::length).containsExactly(100L, 40L, 200L);
            assertThat(targets.get(0).array()).isSameAs(bytes.get(first));
            assertThat(targets.get(1).isHole()).isTrue();
            assertThat(targets.get(2).array()).isSameAs(bytes.get(second));
        });
        assertThat(bytes.get(second)).isEqualTo(Arrays.copyOfRange(content(), 150, 350));
    }
}
