package io.blobingest.bench.jmh;

import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Appending one entry to a Raw Pack ({@link RawPackWriter#append(byte[])}: crc32c, write, entry
 * row), the sink's per-blob cost for every Packed blob. As in the sink, each append is preceded by
 * the size check ({@link RawPackWriter#finishedLengthAfterAppend}), and a pack is finished (entry
 * table, metadata, tail) and a new one started whenever the next entry would pass {@link
 * #PACK_TARGET_SIZE}, so the footer's cost is spread over the entries as in the sink. The bytes go
 * to a stream that discards them: storage speed is not what is measured.
 *
 * <p>One operation is one appended entry of {@code payloadSize} bytes: payload throughput in
 * bytes per second is operations per second times {@code payloadSize}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PackAppendBenchmark extends ShortRunDefaults {

    /** The pack target the demo runs with. */
    private static final long PACK_TARGET_SIZE = 16L * 1024 * 1024;

    private static final RawPackMetadata METADATA = new RawPackMetadata("benchmark-set", 1, "blob-ingest-benchmarks");

    /** Small, camera-frame-sized and large Packed payloads. */
    @Param({"4096", "65536", "1048576"})
    public int payloadSize;

    private final OutputStream discard = OutputStream.nullOutputStream();
    private byte[] payload;
    private RawPackWriter pack;

    @Setup
    public void startFirstPack() throws IOException {
        payload = new byte[payloadSize];
        new SplittableRandom(42).nextBytes(payload);
        pack = RawPackWriter.create(discard, METADATA);
    }

    /** @return the entry reference, as the sink stores it in the descriptor */
    @Benchmark
    public long appendEntry() throws IOException {
        if (pack.finishedLengthAfterAppend(payloadSize) > PACK_TARGET_SIZE) {
            pack.finish();
            pack = RawPackWriter.create(discard, METADATA);
        }
        return pack.append(payload);
    }
}
