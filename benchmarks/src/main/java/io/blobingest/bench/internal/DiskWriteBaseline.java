package io.blobingest.bench.internal;

import io.blobingest.bench.DiskFigures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Measures {@link DiskFigures}: writes the bytes sequentially in 1 MiB writes, as {@code dd bs=1M}
 * does, to a file in the given directory, first ended by an fsync, then (the file deleted and
 * written anew) without one; the file is deleted afterwards. The synced write goes first, so that
 * the dirty pages the unsynced one leaves behind do not slow it down.
 */
public final class DiskWriteBaseline {

    private static final int WRITE_SIZE = 1 << 20;
    private static final String FILE_NAME = "disk-baseline.bin";

    private DiskWriteBaseline() {}

    public static DiskFigures measure(Path directory, long bytes, long seed) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        // Random bytes: a file system or device that compresses or deduplicates gets no easier job than the blobs'.
        byte[] block = new byte[WRITE_SIZE];
        new SplittableRandom(seed).nextBytes(block);
        try {
            Duration synced = write(file, bytes, block, true);
            Duration unsynced = write(file, bytes, block, false);
            return new DiskFigures(bytes, synced, unsynced);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static Duration write(Path file, long bytes, byte[] block, boolean sync) throws IOException {
        Files.deleteIfExists(file);
        ByteBuffer buffer = ByteBuffer.wrap(block);
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long written = 0; written < bytes; ) {
                buffer.clear().limit((int) Math.min(block.length, bytes - written));
                while (buffer.hasRemaining()) {
                    written += channel.write(buffer);
                }
            }
            if (sync) {
                channel.force(true);
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
