package io.blobingest.job.testing;

import io.blobingest.objectlayer.BlobKind;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A deterministic mix of blob records: record {@code i}'s key, headers and bytes are a function of
 * {@code (seed, i)}, so a test can regenerate any input to compare with what was read back, without
 * holding the whole workload in memory.
 *
 * <p>Records 0..8 hit the placement boundaries (0 bytes, 64 KiB, 64 KiB + 1, 4 MiB, 4 MiB + 1) and
 * carry 5-20 MiB video segments; every tenth record is a 64-96 KiB frame (Packed); the rest are
 * 0-2 KiB telemetry packets (Inline).
 *
 * <p>With {@code duplicates}, records from 50 on also repeat earlier content, as robots do (keys
 * and headers stay the record's own): two of every three frames, and every other record ending in
 * 5 (on the other partition of two), are one of four calibration frames (records 10, 20, 30 and
 * 40), and every 150th record from 77 on is the 5 MiB video segment of record 5 again.
 */
public record TestWorkload(long seed, int count, boolean duplicates) implements PipelineOutput.Inputs {

    /**
     * Input 0's Kafka timestamp: an hour before this JVM started its tests, recent enough that no
     * retention removes the records, and past, so that no broker refuses them as from the future.
     */
    public static final long FIRST_TIMESTAMP = System.currentTimeMillis() / 1000 * 1000 - 3_600_000L;

    public static final int KIB = 1024;
    public static final int MIB = 1024 * KIB;
    private static final int[] BOUNDARY_SIZES = {
        0, 64 * KIB, 64 * KIB + 1, 4 * MIB, 4 * MIB + 1, 5 * MIB, 9 * MIB, 14 * MIB, 20 * MIB
    };

    public TestWorkload(long seed, int count) {
        this(seed, count, false);
    }

    /** The record whose bytes record {@code index} carries: itself, or the earlier one it repeats. */
    public int contentOf(int index) {
        if (!duplicates || index < 50) {
            return index;
        }
        if (index % 150 == 77) {
            return 5;
        }
        if ((index % 10 == 0 && (index / 10) % 3 != 0) || (index % 10 == 5 && (index / 10) % 2 == 0)) {
            return 10 * (1 + (index / 10) % 4);
        }
        return index;
    }

    public int size(int record) {
        int index = contentOf(record);
        if (index < BOUNDARY_SIZES.length) {
            return BOUNDARY_SIZES[index];
        }
        SplittableRandom random = random(index);
        if (index % 10 == 0) {
            return 64 * KIB + 1 + random.nextInt(32 * KIB);
        }
        return random.nextInt(2 * KIB + 1);
    }

    @Override
    public BlobKind kind(int index) {
        return PipelineOutput.expectedKind(size(index));
    }

    @Override
    public byte[] bytes(int index) {
        byte[] bytes = new byte[size(index)];
        random(contentOf(index)).split().nextBytes(bytes);
        return bytes;
    }

    @Override
    public byte[] key(int index) {
        return keyOf(index);
    }

    @Override
    public List<Header> headers(int index) {
        return headersOf(index);
    }

    /** Record {@code index}'s key, null for every 97th record: a null key must round-trip too. */
    public static byte[] keyOf(int index) {
        return index % 97 == 1 ? null : ("robot-" + (index % 7) + "/frame-" + index).getBytes(StandardCharsets.UTF_8);
    }

    /** Record {@code index}'s headers, passed through to descriptors: a repeated name, and an empty value. */
    public static List<Header> headersOf(int index) {
        List<Header> headers = new ArrayList<>();
        headers.add(new RecordHeader("camera", ("cam-" + index % 4).getBytes(StandardCharsets.UTF_8)));
        headers.add(new RecordHeader("seq", Integer.toString(index).getBytes(StandardCharsets.UTF_8)));
        if (index % 5 == 0) {
            headers.add(new RecordHeader("tag", "calibration".getBytes(StandardCharsets.UTF_8)));
            headers.add(new RecordHeader("tag", new byte[0]));
        }
        return headers;
    }

    public ProducerRecord<byte[], byte[]> record(String topic, int partitions, int index) {
        return new ProducerRecord<>(
                topic, index % partitions, timestamp(index), key(index), bytes(index), headers(index));
    }

    /** Input {@code index}'s Kafka timestamp: rising with the index, so that a time range selects inputs. */
    @Override
    public Long timestamp(int index) {
        return FIRST_TIMESTAMP + index;
    }

    /** Sends records {@code from..to-1} to {@code topic}, record {@code i} to partition {@code i % partitions}. */
    public void send(KafkaBrokerExtension kafka, String topic, int partitions, int from, int to) throws Exception {
        send(kafka, i -> topic, partitions, from, to);
    }

    /** Sends records {@code from..to-1}, record {@code i} to {@code topicOf(i)}, partition {@code i % partitions}. */
    public void send(KafkaBrokerExtension kafka, IntFunction<String> topicOf, int partitions, int from, int to)
            throws Exception {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = from; i < to; i++) {
            batch.add(record(topicOf.apply(i), partitions, i));
            // Batches keep the heap bounded: the workload holds 20 MiB blobs.
            if (batch.size() == 100 || i == to - 1) {
                kafka.send(batch);
                batch.clear();
            }
        }
    }

    /** Which input a descriptor came from: the {@code seq} header every record carries. */
    public static int indexOf(List<io.blobingest.objectlayer.DescriptorRow.Attribute> attributes) {
        for (var attribute : attributes) {
            if (attribute.name().equals("seq")) {
                return Integer.parseInt(new String(attribute.value(), StandardCharsets.UTF_8));
            }
        }
        throw new AssertionError("no seq header in " + attributes);
    }

    public long totalBytes() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += size(i);
        }
        return total;
    }

    private SplittableRandom random(int index) {
        return new SplittableRandom(seed * 1_000_003L + index);
    }
}
