package io.blobingest.cli.e2e;

import static io.blobingest.placement.DeadLetterCode.DESCRIPTOR_TOO_LARGE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input through the {@code run} command: a real Kafka broker, Flink's MiniCluster, the {@code
 * size-or-time} roll policy. Records that break spec.md section 4 are interleaved with good ones; each
 * must reach the dead-letter topic once, unchanged, with its code, while the job goes on placing
 * the rest.
 */
class DeadLetterITCase {

    static final int PARTITIONS = 2;
    static final String CASE_HEADER = "case";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    @Test
    void everyBadRecordIsDeadLetteredOnceUnchangedWhileEveryGoodOneIsPlaced() throws Exception {
        Path externalDirectory = Files.createDirectories(dir.resolve("external"));
        byte[] clip = clip(1000);
        Path clipFile = Files.write(externalDirectory.resolve("clip.bin"), clip);
        String allowedPrefix = externalDirectory.toUri().toString();
        String clipUri = clipFile.toUri().toString();

        List<Input> bad = List.of(
                bad("null value", DeadLetterCode.NULL_VALUE, null),
                bad("position without size", DeadLetterCode.BAD_RANGE, bytes("abc"), BlobHeaders.POSITION, "5"),
                // A video segment is dead-lettered whole: the dead-letter producer needs room for it.
                bad(
                        "large, size without position",
                        DeadLetterCode.BAD_RANGE,
                        clip(5 * 1024 * 1024),
                        BlobHeaders.SIZE,
                        "5"),
                bad(
                        "non-numeric range",
                        DeadLetterCode.BAD_RANGE,
                        null,
                        BlobHeaders.URI,
                        clipUri,
                        BlobHeaders.MODE,
                        "reference",
                        BlobHeaders.POSITION,
                        "ten",
                        BlobHeaders.SIZE,
                        "5"),
                bad(
                        "negative range",
                        DeadLetterCode.BAD_RANGE,
                        null,
                        BlobHeaders.URI,
                        clipUri,
                        BlobHeaders.MODE,
                        "reference",
                        BlobHeaders.POSITION,
                        "-5",
                        BlobHeaders.SIZE,
                        "10"),
                bad(
                        "range overflow",
                        DeadLetterCode.BAD_RANGE,
                        new byte[0],
                        BlobHeaders.URI,
                        clipUri,
                        BlobHeaders.MODE,
                        "reference",
                        BlobHeaders.POSITION,
                        "18446744073709551615",
                        BlobHeaders.SIZE,
                        "1"),
                bad(
                        "uri not allowed",
                        DeadLetterCode.URI_NOT_ALLOWED,
                        null,
                        BlobHeaders.URI,
                        "file:///elsewhere/clip.bin",
                        BlobHeaders.MODE,
                        "reference"),
                bad(
                        "dot-dot uri",
                        DeadLetterCode.BAD_URI,
                        null,
                        BlobHeaders.URI,
                        allowedPrefix + "../secret.bin",
                        BlobHeaders.MODE,
                        "reference"),
                bad("unknown mode", DeadLetterCode.BAD_URI, null, BlobHeaders.URI, clipUri, BlobHeaders.MODE, "copy"),
                bad(
                        "external ingest of a missing object",
                        DeadLetterCode.NOT_FOUND,
                        new byte[0],
                        BlobHeaders.URI,
                        allowedPrefix + "missing.bin",
                        BlobHeaders.MODE,
                        "ingest"));
        Input reference = input(
                "allowed reference",
                null,
                BlobHeaders.URI,
                clipUri,
                BlobHeaders.MODE,
                "reference",
                BlobHeaders.POSITION,
                "100",
                BlobHeaders.SIZE,
                "200");

        TestWorkload workload = new TestWorkload(11, 1_000);
        List<Input> odd = new ArrayList<>(bad);
        odd.add(reference);
        Path base = dir.resolve("base");

        RunResult run = runBounded(
                workload,
                odd,
                "",
                base,
                "-D",
                "sink.raw-pack.roll-policy=size-or-time",
                "-D",
                "sink.raw-pack.pack-target-size=4mb",
                "-D",
                "external.allowed-prefixes=" + allowedPrefix);

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertDeadLetteredOnceUnchanged(KAFKA.drainCommitted("dead-letters"), bad);

        PipelineOutput output = PipelineOutput.read(KAFKA, "descriptors", base);
        Predicate<DescriptorRow> isExternal = row -> row.blob().kind() == BlobKind.EXTERNAL;
        BlobDescriptor expectedReference = BlobDescriptor.external(clipUri, 100, 200);
        assertReference(output.descriptors.stream().filter(isExternal).toList(), reference, expectedReference);
        assertReference(output.manifestRows.stream().filter(isExternal).toList(), reference, expectedReference);
        assertReadsBack(
                output.descriptors.stream().filter(isExternal).findFirst().orElseThrow(),
                base,
                Arrays.copyOfRange(clip, 100, 300));
        Set<Integer> all = IntStream.range(0, workload.count()).boxed().collect(Collectors.toSet());
        output.excluding(isExternal).assertExactlyOnceAndByteExact(workload, all);

        // size-or-time seals a set only when its pack is full (or at the end): partition 0's
        // frames fill more than one 4 MiB pack, so more sets than subtasks proves a roll by size.
        assertThat(output.manifestRows.stream()
                        .map(DescriptorRow::blobSet)
                        .filter(Objects::nonNull)
                        .distinct()
                        .count())
                .as("blob sets with sidecars")
                .isGreaterThan(PARTITIONS);
        assertThat(run.output())
                .contains("run summary: " + (workload.count() + 1) + " descriptors")
                .contains("external            1 references")
                .contains("dead letters 10: null-value 1, bad-range 5, bad-uri 2, uri-not-allowed 1, not-found 1");
    }

    /**
     * A record whose descriptor could not be sent (Kafka's default {@code max.request.size} of 1 MiB
     * for the descriptor producer) must be refused before it is placed. Without that check such a
     * record's blob set was committed and its descriptor failed with {@code RecordTooLargeException}
     * on every restart: the job ended FAILED with the input behind it stuck.
     */
    @Test
    void recordsWhoseDescriptorCannotBeSentAreDeadLetteredBeforeTheyArePlaced() throws Exception {
        int descriptorLimit = 1024 * 1024;
        PlacementPolicy placement = new PlacementPolicy(
                2L * 1024 * 1024,
                PlacementPolicy.LANCE_DEDICATED_THRESHOLD_BYTES,
                PlacementPolicy.LANCE_PACK_MAX_BYTES);
        Path externalDirectory = Files.createDirectories(dir.resolve("external"));
        // Fetched, it becomes an Inline blob whose bytes the descriptor would carry.
        Path nearLimitFile = Files.write(externalDirectory.resolve("near-limit.bin"), clip(descriptorLimit - 64));
        List<Input> bad = List.of(
                withKey(bad("one-megabyte key", DESCRIPTOR_TOO_LARGE, clip(100)), clip(descriptorLimit)),
                bad(
                        "one-megabyte headers",
                        DESCRIPTOR_TOO_LARGE,
                        clip(1000),
                        "bulk",
                        "h".repeat(256 * 1024),
                        "bulk",
                        "h".repeat(256 * 1024),
                        "bulk",
                        "h".repeat(256 * 1024),
                        "bulk",
                        "h".repeat(256 * 1024)),
                bad("inline value just under the producer limit", DESCRIPTOR_TOO_LARGE, clip(descriptorLimit - 64)),
                withKey(
                        bad("dedicated blob with a one-megabyte key", DESCRIPTOR_TOO_LARGE, clip(5 * 1024 * 1024)),
                        clip(descriptorLimit)),
                // Above the dead-letter producer's default buffer.memory (32 MiB): the dead letter must still go.
                bad(
                        "34 MiB, size without position",
                        DeadLetterCode.BAD_RANGE,
                        clip(34 * 1024 * 1024),
                        BlobHeaders.SIZE,
                        "5"),
                bad(
                        "fetched inline value just under the producer limit",
                        DESCRIPTOR_TOO_LARGE,
                        new byte[0],
                        BlobHeaders.URI,
                        nearLimitFile.toUri().toString(),
                        BlobHeaders.MODE,
                        "ingest"));
        Input fits = input("inline value that fits", clip(descriptorLimit - 4096));

        TestWorkload workload = new TestWorkload(13, 300);
        List<Input> odd = new ArrayList<>(bad);
        odd.add(fits);
        Path base = dir.resolve("base");

        RunResult run = runBounded(
                workload,
                odd,
                "poison-",
                base,
                "-D",
                "placement.inline-max-size=" + placement.inlineMaxBytes(),
                "-D",
                "external.allowed-prefixes=" + externalDirectory.toUri());

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertDeadLetteredOnceUnchanged(KAFKA.drainCommitted("poison-dead-letters"), bad);
        PipelineOutput output = PipelineOutput.read(KAFKA, "poison-descriptors", base);
        Predicate<DescriptorRow> isOdd =
                row -> row.attributes().stream().anyMatch(a -> a.name().equals(CASE_HEADER));
        for (List<DescriptorRow> rows : List.of(output.descriptors, output.manifestRows)) {
            List<DescriptorRow> oddRows = rows.stream().filter(isOdd).toList();
            assertThat(oddRows).as("odd inputs placed").hasSize(1);
            assertThat(oddRows.get(0).blob().kind()).isEqualTo(BlobKind.INLINE);
            assertThat(oddRows.get(0).inlineData())
                    .as("bytes of '%s'", fits.name())
                    .isEqualTo(fits.value());
        }
        Set<Integer> all = IntStream.range(0, workload.count()).boxed().collect(Collectors.toSet());
        output.excluding(isOdd).assertExactlyOnceAndByteExact(workload, all, placement);
        assertThat(run.output()).contains("dead letters 6: bad-range 1, descriptor-too-large 5");
    }

    private static void assertDeadLetteredOnceUnchanged(
            List<ConsumerRecord<byte[], byte[]>> deadLetters, List<Input> bad) {
        Map<String, List<ConsumerRecord<byte[], byte[]>>> byCase = deadLetters.stream()
                .collect(Collectors.groupingBy(
                        record -> text(record.headers().lastHeader(CASE_HEADER).value())));
        assertThat(byCase.keySet())
                .as("dead-lettered inputs")
                .containsExactlyInAnyOrderElementsOf(
                        bad.stream().map(Input::name).toList());
        for (Input input : bad) {
            List<ConsumerRecord<byte[], byte[]>> records = byCase.get(input.name());
            assertThat(records).as("dead letters of '%s'", input.name()).hasSize(1);
            ConsumerRecord<byte[], byte[]> record = records.get(0);
            assertThat(record.key()).as("key of '%s'", input.name()).isEqualTo(input.key());
            assertThat(record.value()).as("value of '%s'", input.name()).isEqualTo(input.value());
            List<Header> headers = Arrays.asList(record.headers().toArray());
            assertThat(headers)
                    .as("headers of '%s'", input.name())
                    .hasSize(input.headers().size() + 2);
            assertThat(headers.subList(0, input.headers().size()))
                    .as("input headers of '%s'", input.name())
                    .usingElementComparator(DeadLetterITCase::compareHeaders)
                    .containsExactlyElementsOf(input.headers());
            assertThat(headers.get(headers.size() - 2).key()).isEqualTo(BlobHeaders.ERROR);
            assertThat(text(headers.get(headers.size() - 2).value()))
                    .as("code of '%s'", input.name())
                    .isEqualTo(input.code().wireName());
            assertThat(headers.get(headers.size() - 1).key()).isEqualTo(BlobHeaders.ERROR_DETAIL);
            assertThat(text(headers.get(headers.size() - 1).value()))
                    .as("detail of '%s'", input.name())
                    .isNotBlank();
        }
    }

    private static void assertReference(List<DescriptorRow> rows, Input input, BlobDescriptor expected) {
        assertThat(rows).as("External descriptors").hasSize(1);
        DescriptorRow row = rows.get(0);
        assertThat(row.blob()).isEqualTo(expected);
        assertThat(row.crc32c()).as("crc32c of a reference").isNull();
        assertThat(row.key()).isEqualTo(input.key());
        List<Header> passedThrough = input.headers().stream()
                .filter(header -> !BlobHeaders.RESERVED.contains(header.key()))
                .toList();
        assertThat(row.attributes().stream()
                        .map(a -> (Header) new RecordHeader(a.name(), a.value()))
                        .toList())
                .usingElementComparator(DeadLetterITCase::compareHeaders)
                .containsExactlyElementsOf(passedThrough);
    }

    private static void assertReadsBack(DescriptorRow row, Path base, byte[] expected) throws Exception {
        try (ObjectLayer objectLayer =
                ObjectLayer.builder(new LocalBlobStorage()).build()) {
            List<byte[]> blobs = objectLayer.readAll(List.of(BlobRequest.forRow(row, base.toUri(), BlobFeatures.ALL)));
            assertThat(blobs.get(0)).as("bytes of the External reference").isEqualTo(expected);
        }
    }

    /** An input the test sends, named by its {@code case} header; {@code code} is null for a good one. */
    private record Input(String name, DeadLetterCode code, byte[] key, byte[] value, List<Header> headers) {}

    private static Input bad(String name, DeadLetterCode code, byte[] value, String... blobHeaders) {
        Input input = input(name, value, blobHeaders);
        return new Input(name, code, input.key(), value, input.headers());
    }

    private static Input withKey(Input input, byte[] key) {
        return new Input(input.name(), input.code(), key, input.value(), input.headers());
    }

    private static Input input(String name, byte[] value, String... blobHeaders) {
        List<Header> headers = new ArrayList<>();
        headers.add(new RecordHeader(CASE_HEADER, bytes(name)));
        headers.add(new RecordHeader("camera", bytes("cam-9")));
        for (int i = 0; i < blobHeaders.length; i += 2) {
            headers.add(new RecordHeader(blobHeaders[i], bytes(blobHeaders[i + 1])));
        }
        return new Input(name, null, bytes("odd/" + name), value, headers);
    }

    /**
     * Sends the workload's records to partition {@code index % PARTITIONS}, with the odd inputs
     * spread between them, alternating partitions, so that good records follow every bad one.
     */
    private static void produceInterleaved(TestWorkload workload, List<Input> odd, String topic) throws Exception {
        KAFKA.createTopic(topic, PARTITIONS);
        int every = workload.count() / (odd.size() + 1);
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < workload.count(); i++) {
            batch.add(workload.record(topic, PARTITIONS, i));
            int oddIndex = i / every;
            if (i % every == every - 1 && oddIndex < odd.size()) {
                Input input = odd.get(oddIndex);
                batch.add(new ProducerRecord<>(
                        topic, oddIndex % PARTITIONS, input.key(), input.value(), input.headers()));
            }
            if (batch.size() >= 200) {
                KAFKA.send(batch);
                batch.clear();
            }
        }
        KAFKA.send(batch);
    }

    private static int compareHeaders(Header a, Header b) {
        return a.key().equals(b.key()) && Arrays.equals(a.value(), b.value()) ? 0 : 1;
    }

    private static byte[] clip(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, UTF_8);
    }

    /**
     * Sends the workload with the odd inputs among it to {@code <prefix>blobs} and runs the job
     * bounded on it, into {@code <prefix>descriptors} and {@code <prefix>dead-letters}, with no
     * restart strategy: a failure fails the run instead of being retried, and bad input must not
     * cause one.
     */
    private static RunResult runBounded(
            TestWorkload workload, List<Input> odd, String prefix, Path base, String... settings) throws Exception {
        produceInterleaved(workload, odd, prefix + "blobs");
        KAFKA.createTopic(prefix + "descriptors", 1);
        KAFKA.createTopic(prefix + "dead-letters", 1);
        return TestEnvironment.runArguments(
                        KAFKA, prefix + "blobs", prefix + "descriptors", prefix + "dead-letters", base)
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .bounded()
                .set("restart-strategy.type", "none")
                .add(settings)
                .run();
    }
}
