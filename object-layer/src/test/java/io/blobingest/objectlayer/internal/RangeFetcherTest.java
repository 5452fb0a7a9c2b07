package io.blobingest.objectlayer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
                new ByteSpan(0, 700), new ByteSpan(650, 100), new ByteSpan(800, 1500), new ByteSpan(2300, 1), new ByteSpan(4000, 999));

        Map<ByteSpan, byte[]> bytes = fetch(new RangeCoalescer(100, 512), ranges);

        for (ByteSpan range : ranges) {
            assertThat(bytes.get(range)).as("range %s", range)
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
}
