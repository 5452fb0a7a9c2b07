package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The chaos run's inputs: record {@code i} is a function of {@code (seed, i)}, so the check can
 * regenerate any of them. Every 3,000th record (offset 1,500) is a 5-20 MiB video segment
 * (Dedicated); every 25th a 65-100 KiB frame (Packed); every 101st (offset 3) an External
 * reference to one of {@link #EXTERNAL_FILES} files, every other one of them to a byte range;
 * every 103rd (offset 5) an ingest-mode External record whose file is fetched and placed (Inline,
 * Packed, or, for the 6 MiB file, Dedicated: the sink copies it into a sidecar); every
 * 997th (offset 7) has a null value and every 1,009th (offset 11) a URI outside the allowed
 * prefix (dead letters); the rest are 0-2 KiB telemetry packets (Inline).
 */
record ChaosWorkload(long seed, Path externalDirectory) implements PipelineOutput.Inputs {

    static final int KIB = 1024;
    static final int MIB = 1024 * KIB;
    static final int EXTERNAL_FILES = 8;
    private static final int[] EXTERNAL_SIZES = {
        8 * KIB, 40 * KIB, 100 * KIB, 256 * KIB, 1 * KIB, 70 * KIB, 200 * KIB, 6 * MIB
    };

    enum Shape {
        INLINE,
        PACKED,
        DEDICATED,
        REFERENCE,
        INGEST,
        NULL_VALUE,
        NOT_ALLOWED
    }

    /** Writes the External files the references and ingest-mode records name. */
    void writeExternalFiles() throws IOException {
        Files.createDirectories(externalDirectory);
        for (int k = 0; k < EXTERNAL_FILES; k++) {
            Files.write(externalFile(k), externalBytes(k));
        }
    }

    /** The {@code external.allowed-prefixes} that admits the External files. */
    String allowedPrefix() {
        return externalDirectory.toUri().toString();
    }

    Shape shape(int index) {
        if (index % 3000 == 1500) {
            return Shape.DEDICATED;
        }
        if (index % 997 == 7) {
            return Shape.NULL_VALUE;
        }
        if (index % 1009 == 11) {
            return Shape.NOT_ALLOWED;
        }
        if (index % 101 == 3) {
            return Shape.REFERENCE;
        }
        if (index % 103 == 5) {
            return Shape.INGEST;
        }
        return index % 25 == 0 ? Shape.PACKED : Shape.INLINE;
    }

    /** The dead-letter code input {@code index} must get, if it is a bad record. */
    Optional<String> deadLetterCode(int index) {
        return switch (shape(index)) {
            case NULL_VALUE -> Optional.of(DeadLetterCode.NULL_VALUE.wireName());
            case NOT_ALLOWED -> Optional.of(DeadLetterCode.URI_NOT_ALLOWED.wireName());
            default -> Optional.empty();
        };
    }

    @Override
    public BlobKind kind(int index) {
        return switch (shape(index)) {
            case INLINE -> BlobKind.INLINE;
            case PACKED -> BlobKind.PACKED;
            case DEDICATED -> BlobKind.DEDICATED;
            case REFERENCE -> BlobKind.EXTERNAL;
            case INGEST -> PipelineOutput.expectedKind(EXTERNAL_SIZES[file(index)]);
            case NULL_VALUE, NOT_ALLOWED -> throw new IllegalArgumentException("input " + index + " is a dead letter");
        };
    }

    /** The logical bytes of input {@code index}: what its descriptor must resolve to. */
    @Override
    public byte[] bytes(int index) {
        return switch (shape(index)) {
            case INLINE, PACKED, DEDICATED -> value(index);
            case INGEST -> externalBytes(file(index));
            case REFERENCE -> {
                byte[] file = externalBytes(file(index));
                yield range(index)
                        .map(r -> Arrays.copyOfRange(file, r[0], r[0] + r[1]))
                        .orElse(file);
            }
            case NULL_VALUE, NOT_ALLOWED -> throw new IllegalArgumentException("input " + index + " is a dead letter");
        };
    }

    /** {@link TestWorkload}'s keys. */
    @Override
    public byte[] key(int index) {
        return TestWorkload.keyOf(index);
    }

    /** {@link TestWorkload}'s headers, which travel to the descriptor; the {@code blob.*} ones do not. */
    @Override
    public List<Header> headers(int index) {
        return TestWorkload.headersOf(index);
    }

    ProducerRecord<byte[], byte[]> record(String topic, int partitions, int index) {
        List<Header> headers = new ArrayList<>(headers(index));
        byte[] value = switch (shape(index)) {
            case INLINE, PACKED, DEDICATED -> value(index);
            case REFERENCE -> {
                blobHeader(
                        headers,
                        BlobHeaders.URI,
                        externalFile(file(index)).toUri().toString());
                blobHeader(headers, BlobHeaders.MODE, BlobHeaders.MODE_REFERENCE);
                range(index).ifPresent(r -> {
                    blobHeader(headers, BlobHeaders.POSITION, Integer.toString(r[0]));
                    blobHeader(headers, BlobHeaders.SIZE, Integer.toString(r[1]));
                });
                yield null;
            }
            case INGEST -> {
                blobHeader(
                        headers,
                        BlobHeaders.URI,
                        externalFile(file(index)).toUri().toString());
                blobHeader(headers, BlobHeaders.MODE, BlobHeaders.MODE_INGEST);
                yield new byte[0];
            }
            case NULL_VALUE -> null;
            case NOT_ALLOWED -> {
                blobHeader(headers, BlobHeaders.URI, "file:///elsewhere/chaos-" + index + ".bin");
                blobHeader(headers, BlobHeaders.MODE, BlobHeaders.MODE_REFERENCE);
                yield null;
            }
        };
        return new ProducerRecord<>(topic, index % partitions, key(index), value, headers);
    }

    /** Sends records {@code from..to-1}, record {@code i} to partition {@code i % partitions}. */
    void send(KafkaBrokerExtension kafka, String topic, int partitions, int from, int to) throws Exception {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = from; i < to; i++) {
            batch.add(record(topic, partitions, i));
            // Batches keep the heap bounded: the workload holds 20 MiB blobs.
            if (batch.size() == 200 || i == to - 1) {
                kafka.send(batch);
                batch.clear();
            }
        }
    }

    /** Which of inputs {@code 0..count-1} must be placed: all but the dead letters. */
    Set<Integer> placed(int count) {
        return IntStream.range(0, count)
                .filter(i -> deadLetterCode(i).isEmpty())
                .boxed()
                .collect(Collectors.toSet());
    }

    /**
     * Every bad input of {@code 0..count-1} has exactly one committed dead letter on {@code topic},
     * with its code, and no other input has one; returns the codes by input.
     */
    Map<Integer, String> assertOneDeadLetterPerBadInput(KafkaBrokerExtension kafka, String topic, int count) {
        return assertOneDeadLetterPerBadInput(kafka, topic, count, false);
    }

    /**
     * As {@link #assertOneDeadLetterPerBadInput(KafkaBrokerExtension, String, int)}, and with
     * {@code mayFailFetching} an ingest-mode External input may have one {@code fetch-failed} dead
     * letter instead of its descriptor (a run whose copies may time out); no other input may.
     */
    Map<Integer, String> assertOneDeadLetterPerBadInput(
            KafkaBrokerExtension kafka, String topic, int count, boolean mayFailFetching) {
        Map<Integer, String> codes = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> deadLetter : kafka.drainCommitted(topic)) {
            int index = Integer.parseInt(header(deadLetter, "seq"));
            assertThat(codes.put(index, header(deadLetter, BlobHeaders.ERROR)))
                    .as("dead letters of input %d", index)
                    .isNull();
        }
        Map<Integer, String> expected = new TreeMap<>();
        IntStream.range(0, count).forEach(i -> deadLetterCode(i).ifPresent(code -> expected.put(i, code)));
        if (mayFailFetching) {
            String fetchFailed = DeadLetterCode.FETCH_FAILED.wireName();
            codes.forEach((index, code) -> {
                if (code.equals(fetchFailed) && shape(index) == Shape.INGEST) {
                    expected.put(index, code);
                }
            });
        }
        assertThat(codes).as("dead letters by input").isEqualTo(expected);
        return codes;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    /** How many of inputs {@code 0..count-1} have each shape, in {@link Shape} order. */
    private long[] shapeCounts(int count) {
        long[] counts = new long[Shape.values().length];
        for (int i = 0; i < count; i++) {
            counts[shape(i).ordinal()]++;
        }
        return counts;
    }

    /** How many of inputs {@code 0..count-1} have each shape, as words: {@code inline 19726 packed 816 ...}. */
    String describeShapes(int count) {
        long[] counts = shapeCounts(count);
        StringBuilder words = new StringBuilder();
        for (Shape shape : Shape.values()) {
            words.append(' ')
                    .append(shape.name().toLowerCase(Locale.ROOT))
                    .append(' ')
                    .append(counts[shape.ordinal()]);
        }
        return words.toString().strip();
    }

    private byte[] value(int index) {
        SplittableRandom random = random(index);
        int size = switch (shape(index)) {
            case DEDICATED -> 5 * MIB + random.nextInt(15 * MIB + 1);
            case PACKED -> 64 * KIB + 1 + random.nextInt(36 * KIB);
            default -> random.nextInt(2 * KIB + 1);
        };
        byte[] bytes = new byte[size];
        random.split().nextBytes(bytes);
        return bytes;
    }

    /** Every other reference names a range {position, size} inside its file. */
    private Optional<int[]> range(int index) {
        if (index % 2 == 0) {
            return Optional.empty();
        }
        int length = EXTERNAL_SIZES[file(index)];
        int position = index % (length / 2);
        return Optional.of(new int[] {position, length / 4});
    }

    private static int file(int index) {
        return index % EXTERNAL_FILES;
    }

    private Path externalFile(int k) {
        return externalDirectory.resolve("external-" + k + ".bin");
    }

    private byte[] externalBytes(int k) {
        byte[] bytes = new byte[EXTERNAL_SIZES[k]];
        new SplittableRandom(seed * 31 + k).nextBytes(bytes);
        return bytes;
    }

    private static void blobHeader(List<Header> headers, String name, String value) {
        headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8)));
    }

    private SplittableRandom random(int index) {
        return new SplittableRandom(seed * 1_000_003L + index);
    }
}
