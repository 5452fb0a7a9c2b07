package io.blobingest.bench.internal;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Blobs of random (incompressible) bytes with sizes drawn uniformly from {@code [minBytes,
 * maxBytes]}, a pure function of {@code (seed, index)}; no headers, key {@code blob-<index>}.
 */
public final class SizedBlobWorkload implements TopicWorkload {

    private static final String KEY_PREFIX = "blob-";

    private final long seed;
    private final int minBytes;
    private final int maxBytes;
    private final int count;

    public SizedBlobWorkload(long seed, int minBytes, int maxBytes, int count) {
        if (minBytes < 1 || maxBytes < minBytes) {
            throw new IllegalArgumentException("need 1 <= min <= max, found min " + minBytes + ", max " + maxBytes);
        }
        if (count < 1) {
            throw new IllegalArgumentException("need at least one record, found " + count);
        }
        this.seed = seed;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
        this.count = count;
    }

    /** As many records as make about {@code totalBytes} on average, at least one. */
    public static SizedBlobWorkload ofTotalBytes(long seed, int minBytes, int maxBytes, long totalBytes) {
        SizedBlobWorkload one = new SizedBlobWorkload(seed, minBytes, maxBytes, 1);
        return new SizedBlobWorkload(
                seed, minBytes, maxBytes, (int) Math.max(1, Math.round(totalBytes / one.averageSize())));
    }

    public int minBytes() {
        return minBytes;
    }

    public int maxBytes() {
        return maxBytes;
    }

    /** The mean of the size distribution. */
    public double averageSize() {
        return (minBytes + (double) maxBytes) / 2;
    }

    @Override
    public int count() {
        return count;
    }

    public int size(int index) {
        return minBytes + random(index, 0).nextInt(maxBytes - minBytes + 1);
    }

    public byte[] value(int index) {
        byte[] bytes = new byte[size(index)];
        random(index, 1).nextBytes(bytes);
        return bytes;
    }

    /** The index of the record whose key is {@code key}. */
    public static int index(byte[] key) {
        String text = new String(key, StandardCharsets.UTF_8);
        if (!text.startsWith(KEY_PREFIX)) {
            throw new IllegalArgumentException("not a key of this workload: '" + text + "'");
        }
        return Integer.parseInt(text.substring(KEY_PREFIX.length()));
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(String topic, int partitions, int index) {
        return new ProducerRecord<>(
                topic, index % partitions, (KEY_PREFIX + index).getBytes(StandardCharsets.UTF_8), value(index));
    }

    /** Independent streams per record: 0 its size, 1 its bytes. */
    private SplittableRandom random(int index, int stream) {
        return new SplittableRandom((seed * 0x9E3779B97F4A7C15L) ^ ((long) index << 8 | stream));
    }
}
