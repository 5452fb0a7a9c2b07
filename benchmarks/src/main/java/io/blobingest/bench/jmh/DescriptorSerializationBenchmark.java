package io.blobingest.bench.jmh;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What every committed blob costs twice on its way out: its descriptor topic record
 * ({@link DescriptorRecords#toProducerRecord}, what {@code DescriptorRecordSerializer} returns:
 * nine descriptor headers plus the passed-through ones) and its row in the blob set's Arrow IPC
 * manifest ({@link DescriptorManifestWriter#write}). Both run over {@link #ROWS} demo-like rows,
 * about one blob set per checkpoint, and report the time per row; the manifest's per-file cost
 * (allocator, schema, IPC header and footer) is spread over those rows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED") // Arrow on Java 17
public class DescriptorSerializationBenchmark extends ShortRunDefaults {

    private static final int ROWS = 1000;
    private static final String BLOB_SET = "benchmark-set";
    private static final String DESCRIPTOR_TOPIC = "robot-descriptors";
    private static final Long TIMESTAMP = 1_748_764_800_000L;

    private List<DescriptorRow> rows;
    private final ByteCountingOutputStream manifest = new ByteCountingOutputStream();

    @Setup
    public void generateRows() {
        rows = DemoLikeDescriptorRows.generate(ROWS, BLOB_SET);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void kafkaDescriptorRecord(Blackhole records) {
        for (DescriptorRow row : rows) {
            records.consume(DescriptorRecords.toProducerRecord(DESCRIPTOR_TOPIC, row, TIMESTAMP));
        }
    }

    /** @return the manifest's length in bytes */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long arrowManifestRow() throws IOException {
        manifest.reset();
        DescriptorManifestWriter.write(BLOB_SET, rows, manifest);
        return manifest.count();
    }

    /** Discards what it is given and counts it. */
    private static final class ByteCountingOutputStream extends OutputStream {
        private long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            count += length;
        }

        void reset() {
            count = 0;
        }

        long count() {
            return count;
        }
    }
}
