package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;

/**
 * The fragment writer with a real Lance dataset does not hold an unbounded number of rows until the
 * next barrier: a backfill passes rows through as fast as it reads manifests.
 */
class LanceFragmentWriterTest {

    @TempDir
    Path dir;

    @Test
    void writesFragmentsBeforeTheBarrierOnceItHoldsTheInlineBytesLimit() throws Exception {
        LanceSettings settings = new LanceSettings(
                dir.resolve("robots.lance").toString(),
                dir.resolve("base").toUri().toString(),
                Map.of(),
                List.of());
        int blobSize = 1024 * 1024;
        long blobsToLimit = LanceFragmentWriter.MAX_BUFFERED_INLINE_BYTES / blobSize;
        try (BufferAllocator allocator = new RootAllocator();
                Dataset ignored = LanceDatasets.openOrCreate(settings, settings.datasetUri(), allocator);
                OneInputStreamOperatorTestHarness<DescriptorRow, byte[]> writer =
                        new OneInputStreamOperatorTestHarness<>(
                                new LanceFragmentWriter(settings, settings.blobBase()))) {
            writer.open();
            for (long i = 0; i < blobsToLimit - 1; i++) {
                writer.processElement(new StreamRecord<>(inlineRow(i, blobSize)));
            }
            assertThat(writer.extractOutputValues())
                    .as("fragments below the limit")
                    .isEmpty();

            writer.processElement(new StreamRecord<>(inlineRow(blobsToLimit, blobSize)));

            assertThat(writer.extractOutputValues())
                    .as("fragment metadata handed over at the limit, before any barrier")
                    .hasSize(1);
        }
    }

    private static DescriptorRow inlineRow(long offset, int size) {
        byte[] bytes = new byte[size];
        return new DescriptorRow(
                null, "blobs", 0, offset, null, BlobDescriptor.inline(size), null, bytes, null, List.of());
    }
}
