package io.blobingest.bench.jmh;

import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Planning a pack from its tail ({@link RawPackReader#readFooter}): the last 64 KiB, one more
 * read when the footer is larger, then the envelope checks (tail, size equation, footer crc32c,
 * metadata JSON, required features) and every entry row. The Object Layer does this once per
 * pack it has not cached, before it reads any payload of a batch. The pack is in memory, so the
 * reads are array copies and the parse is what is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FooterParseBenchmark extends ShortRunDefaults {

    /**
     * The parse never reads payload bytes. 1 KiB entries keep the 100,000-entry pack at 100 MiB
     * of heap and make even the 100-entry pack longer than the 64 KiB first read, as real packs
     * are, so no plan checks the header.
     */
    private static final int ENTRY_SIZE = 1024;

    /** A footer inside the first 64 KiB read, and two that need the second read. */
    @Param({"100", "10000", "100000"})
    public int entryCount;

    private final RawPackReader reader = RawPackReader.withAllFeatures();
    private InMemoryObject pack;

    @Setup
    public void writePack() throws IOException {
        byte[] payload = new byte[ENTRY_SIZE];
        new SplittableRandom(42).nextBytes(payload);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RawPackWriter writer =
                RawPackWriter.create(bytes, new RawPackMetadata("benchmark-set", 1, "blob-ingest-benchmarks"));
        for (int i = 0; i < entryCount; i++) {
            writer.append(payload);
        }
        writer.finish();
        pack = new InMemoryObject("memory:/benchmark-set/" + entryCount + ".blob", bytes.toByteArray());
    }

    @Benchmark
    public RawPackFooter readFooter() throws IOException {
        return reader.readFooter(pack);
    }
}
