package io.blobingest.cli.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.IngestJob;
import io.blobingest.job.IngestJobOptions;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.storage.testing.FlakyFileSystem;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingest-mode external blobs through the {@code run} command: a real Kafka broker, Flink's
 * MiniCluster, local files as the external objects (and the flaky test file system over them for
 * transient failures). Each input ends as a byte-exact descriptor of the placement its size calls
 * for, or as a dead letter with the contract's code.
 */
class ExternalIngestITCase {

    private static final int PARTITIONS = 2;
    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;
    private static final String SECRET = "X-Amz-Signature=topsecret";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    /** What one input should become: a descriptor of {@code kind} for {@code bytes}, or a dead letter. */
    private record Expected(BlobKind kind, byte[] bytes, BlobDescriptor reference, String deadLetterCode) {
        static Expected placed(BlobKind kind, byte[] bytes) {
            return new Expected(kind, bytes, null, null);
        }

        static Expected referenced(BlobDescriptor descriptor) {
            return new Expected(BlobKind.EXTERNAL, null, descriptor, null);
        }

        static Expected deadLetter(String code) {
            return new Expected(null, null, null, code);
        }
    }

    @Test
    void ingestModeRecordsBecomeByteExactDescriptorsOrDeadLettersWithTheSpecCodes() throws Exception {
        Path external = Files.createDirectories(dir.resolve("external"));
        byte[] small = object(external, "small.bin", 100);
        byte[] packed = object(external, "packed.bin", 100 * KIB);
        byte[] dedicated = object(external, "dedicated.bin", 5 * MIB + 3);
        byte[] flakyPacked = object(external, "flaky-packed.bin", 200 * KIB);
        byte[] flakyDedicated = object(external, "flaky-dedicated.bin", 4 * MIB + 1);
        object(external, "too-large.bin", 6 * MIB + 1);
        FlakyFileSystem.failReads(external.resolve("flaky-packed.bin"), 2, 0);
        FlakyFileSystem.failReads(external.resolve("flaky-dedicated.bin"), 1, 2 * MIB);
        String files = external.toUri().toString();
        String flaky = FlakyFileSystem.uri(external).toString();

        Map<String, Expected> expected = new LinkedHashMap<>();
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        input(
                inputs,
                expected,
                "whole-small",
                Expected.placed(BlobKind.INLINE, small),
                "blob.uri",
                files + "small.bin");
        input(
                inputs,
                expected,
                "whole-packed",
                Expected.placed(BlobKind.PACKED, packed),
                "blob.uri",
                files + "packed.bin",
                "blob.mode",
                "ingest");
        input(
                inputs,
                expected,
                "whole-dedicated",
                Expected.placed(BlobKind.DEDICATED, dedicated),
                "blob.uri",
                files + "dedicated.bin?" + SECRET);
        input(
                inputs,
                expected,
                "range-packed",
                Expected.placed(BlobKind.PACKED, slice(dedicated, MIB, 200 * KIB)),
                "blob.uri",
                files + "dedicated.bin",
                "blob.position",
                Integer.toString(MIB),
                "blob.size",
                Integer.toString(200 * KIB));
        input(
                inputs,
                expected,
                "range-dedicated-to-end",
                Expected.placed(BlobKind.DEDICATED, slice(dedicated, 7, dedicated.length - 7)),
                "blob.uri",
                files + "dedicated.bin",
                "blob.position",
                "7",
                "blob.size",
                Integer.toString(dedicated.length - 7));
        input(
                inputs,
                expected,
                "retried-fetch",
                Expected.placed(BlobKind.PACKED, flakyPacked),
                "blob.uri",
                FlakyFileSystem.uri(external.resolve("flaky-packed.bin")).toString());
        input(
                inputs,
                expected,
                "retried-copy",
                Expected.placed(BlobKind.DEDICATED, flakyDedicated),
                "blob.uri",
                FlakyFileSystem.uri(external.resolve("flaky-dedicated.bin")).toString());
        input(
                inputs,
                expected,
                "reference",
                Expected.referenced(BlobDescriptor.external(files + "small.bin", 0, 0)),
                "blob.uri",
                files + "small.bin",
                "blob.mode",
                "reference");
        // A reference is never read by the job, but readers follow it: its links are checked as a
        // fetched file's are, so one leading out of the allowed directory is refused.
        Files.write(dir.resolve("outside.bin"), small);
        Files.createSymbolicLink(external.resolve("link-out.bin"), dir.resolve("outside.bin"));
        input(
                inputs,
                expected,
                "reference-through-a-link-out",
                Expected.deadLetter("uri-not-allowed"),
                "blob.uri",
                files + "link-out.bin",
                "blob.mode",
                "reference");
        input(
                inputs,
                expected,
                "missing",
                Expected.deadLetter("not-found"),
                "blob.uri",
                files + "missing.bin?" + SECRET);
        input(
                inputs,
                expected,
                "range-beyond-end",
                Expected.deadLetter("bad-range"),
                "blob.uri",
                files + "small.bin",
                "blob.position",
                "50",
                "blob.size",
                "51");
        input(
                inputs,
                expected,
                "whole-too-large",
                Expected.deadLetter("too-large"),
                "blob.uri",
                files + "too-large.bin");
        input(
                inputs,
                expected,
                "no-file-system",
                Expected.deadLetter("fetch-failed"),
                "blob.uri",
                "https://example.com/video.bin?" + SECRET);
        input(
                inputs,
                expected,
                "not-allowed",
                Expected.deadLetter("uri-not-allowed"),
                "blob.uri",
                dir.toUri() + "elsewhere.bin");
        KAFKA.createTopic("external-blobs", PARTITIONS);
        KAFKA.createTopic("external-descriptors", 1);
        KAFKA.createTopic("external-dead-letters", 1);
        KAFKA.send(inputs);
        Path base = dir.resolve("base");

        RunResult run = TestEnvironment.runArguments(
                        KAFKA, "external-blobs", "external-descriptors", "external-dead-letters", base)
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .bounded()
                .set("external.allowed-prefixes", files + ";" + flaky + ";https://example.com/")
                .set("placement.max-blob-size", "6mb")
                .set("external.fetch-backoff", "10ms")
                .run();

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).doesNotContain("topsecret");
        PipelineOutput output = PipelineOutput.read(KAFKA, "external-descriptors", base);
        List<ConsumerRecord<byte[], byte[]>> deadLetters = KAFKA.drainCommitted("external-dead-letters");
        assertThat(output.descriptors.size() + deadLetters.size())
                .as("one output per input")
                .isEqualTo(inputs.size());
        assertThat(output.manifestRows).hasSize((int) expected.values().stream()
                .filter(e -> e.deadLetterCode() == null)
                .count());
        assertDescriptors(output.descriptors, expected, base);
        assertDeadLetters(deadLetters, expected);
        assertThat(FlakyFileSystem.remainingFailures(external.resolve("flaky-packed.bin")))
                .isZero();
        assertThat(FlakyFileSystem.remainingFailures(external.resolve("flaky-dedicated.bin")))
                .isZero();
    }

    /**
     * The sink streams a Dedicated blob from its object on the task thread, so a
     * checkpoint barrier waits for the copy. Before the copy had a deadline, an object that trickles
     * held the barrier past the checkpoint timeout: the job failed over, replayed, copied again, and
     * never finished (this test then ran into its own deadline). Now the copy gives up at {@code
     * external.copy-timeout}, or when no chunk arrives within {@code external.copy-stall-timeout}:
     * the record is a {@code fetch-failed} dead letter, its partial sidecar stays hidden, and every
     * other record is placed exactly once.
     */
    @Test
    void aDedicatedCopyThatTricklesBecomesAFetchFailedDeadLetterAndTheJobFinishes() throws Exception {
        Path external = Files.createDirectories(dir.resolve("external"));
        byte[] small = object(external, "small.bin", 100);
        byte[] packed = object(external, "packed.bin", 100 * KIB);
        byte[] dedicated = object(external, "dedicated.bin", 5 * MIB + 3);
        object(external, "slow.bin", 5 * MIB + 5);
        FlakyFileSystem.trickleReads(external.resolve("slow.bin"), 4 * KIB, Duration.ofMillis(200)); // 20 KiB/s
        String files = external.toUri().toString();
        String flaky = FlakyFileSystem.uri(external).toString();

        Map<String, Expected> expected = new LinkedHashMap<>();
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        input(inputs, expected, "small", Expected.placed(BlobKind.INLINE, small), "blob.uri", files + "small.bin");
        input(inputs, expected, "packed", Expected.placed(BlobKind.PACKED, packed), "blob.uri", files + "packed.bin");
        input(inputs, expected, "slow", Expected.deadLetter("fetch-failed"), "blob.uri", flaky + "slow.bin?" + SECRET);
        input(
                inputs,
                expected,
                "dedicated",
                Expected.placed(BlobKind.DEDICATED, dedicated),
                "blob.uri",
                files + "dedicated.bin");
        for (int i = 0; i < 20; i++) {
            byte[] value = new byte[i * 500];
            new SplittableRandom(i).nextBytes(value);
            String name = "carried-" + i;
            inputs.add(new ProducerRecord<>(
                    "slow-blobs",
                    i % PARTITIONS,
                    name.getBytes(UTF_8),
                    value,
                    List.of(new RecordHeader("case", name.getBytes(UTF_8)))));
            expected.put(name, Expected.placed(BlobKind.INLINE, value));
        }
        inputs.replaceAll(record ->
                new ProducerRecord<>("slow-blobs", record.partition(), record.key(), record.value(), record.headers()));
        KAFKA.createTopic("slow-blobs", PARTITIONS);
        KAFKA.createTopic("slow-descriptors", 1);
        KAFKA.createTopic("slow-dead-letters", 1);
        KAFKA.send(inputs);
        Path base = dir.resolve("base");

        RunResult run = assertTimeoutPreemptively(
                Duration.ofMinutes(4),
                () -> TestEnvironment.runArguments(KAFKA, "slow-blobs", "slow-descriptors", "slow-dead-letters", base)
                        .parallelism(PARTITIONS)
                        .checkpointInterval("1s")
                        .bounded()
                        .set("external.allowed-prefixes", files + ";" + flaky)
                        .set("external.fetch-backoff", "10ms")
                        .set("execution.checkpointing.timeout", "30s")
                        .set("sink.raw-pack.external-copy-timeout", "6s")
                        .set("sink.raw-pack.external-copy-stall-timeout", "2s")
                        .run(),
                "the job finishes: the slow copy gives up instead of failing checkpoints over and over");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).doesNotContain("topsecret");
        assertOneOutputPerInputAndACopyDeadLettered(
                "slow-descriptors", "slow-dead-letters", base, inputs.size(), expected, "slow.bin");
    }

    /**
     * Each input once, as a byte-exact descriptor or a dead letter; the first dead letter is the
     * failed copy of {@code object}; only committed files visible.
     */
    private static void assertOneOutputPerInputAndACopyDeadLettered(
            String descriptorTopic,
            String deadLetterTopic,
            Path base,
            int inputs,
            Map<String, Expected> expected,
            String object)
            throws Exception {
        PipelineOutput output = PipelineOutput.read(KAFKA, descriptorTopic, base);
        List<ConsumerRecord<byte[], byte[]>> deadLetters = KAFKA.drainCommitted(deadLetterTopic);
        assertThat(output.descriptors.size() + deadLetters.size())
                .as("one output per input")
                .isEqualTo(inputs);
        assertDescriptors(output.descriptors, expected, base);
        assertDeadLetters(deadLetters, expected);
        assertThat(new String(
                        deadLetters
                                .get(0)
                                .headers()
                                .lastHeader("blob.error.detail")
                                .value(),
                        UTF_8))
                .contains(object + " into a Dedicated sidecar failed");
        StoredBlobs storage = new StoredBlobs(base);
        storage.assertOnlyCommittedFilesAreVisible(storage.committedManifests());
    }

    private static void assertDescriptors(List<DescriptorRow> rows, Map<String, Expected> expected, Path base)
            throws IOException {
        try (ObjectLayer objectLayer =
                ObjectLayer.builder(new LocalBlobStorage()).build()) {
            for (DescriptorRow row : rows) {
                String name = caseOf(row.attributes());
                Expected want = expected.get(name);
                assertThat(want.deadLetterCode())
                        .as("%s is dead-lettered, yet has a descriptor", name)
                        .isNull();
                assertThat(row.blob().kind()).as("kind of %s", name).isEqualTo(want.kind());
                if (want.reference() != null) {
                    assertThat(row.blob()).as("reference %s", name).isEqualTo(want.reference());
                    assertThat(row.crc32c()).as("crc32c of reference %s", name).isNull();
                    continue;
                }
                byte[] read = objectLayer
                        .readAll(List.of(BlobRequest.forRow(row, base.toUri(), BlobFeatures.ALL)))
                        .get(0);
                assertThat(read).as("bytes of %s", name).isEqualTo(want.bytes());
                assertThat(row.crc32c()).as("crc32c of %s", name).isEqualTo(crc32c(want.bytes()));
                assertThat(row.blob().blobUri())
                        .as("an owned blob keeps no URI")
                        .isEmpty();
            }
        }
        assertThat(rows).extracting(row -> caseOf(row.attributes())).doesNotHaveDuplicates();
    }

    private static void assertDeadLetters(
            List<ConsumerRecord<byte[], byte[]>> deadLetters, Map<String, Expected> expected) {
        List<String> names = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> deadLetter : deadLetters) {
            String name = new String(deadLetter.headers().lastHeader("case").value(), UTF_8);
            String detail = new String(
                    deadLetter.headers().lastHeader("blob.error.detail").value(), UTF_8);
            names.add(name);
            assertThat(expected.get(name).deadLetterCode())
                    .as("%s was placed, yet is dead-lettered: %s", name, detail)
                    .isNotNull();
            assertThat(new String(deadLetter.headers().lastHeader("blob.error").value(), UTF_8))
                    .as("code of %s (%s)", name, detail)
                    .isEqualTo(expected.get(name).deadLetterCode());
            assertThat(detail).as("detail of %s", name).doesNotContain("topsecret");
        }
        assertThat(names)
                .containsExactlyInAnyOrderElementsOf(expected.entrySet().stream()
                        .filter(e -> e.getValue().deadLetterCode() != null)
                        .map(Map.Entry::getKey)
                        .toList());
    }

    /**
     * With {@code within-job} exact sharing the blobs cross a network hop to the writers, so the
     * writer's copy of a Dedicated blob from its External object no longer runs inside the fetch
     * stage's task. A copy that fails there must still make its record a dead letter, in the
     * writers' task ({@code FailedCopiesToDeadLetters}), not fail the job on every replay of the record
     * (no restarts here: one failure fails the test), and a bounded run must end without a failover.
     */
    @Test
    void withWithinJobSharingAFailedDedicatedCopyBecomesAFetchFailedDeadLetter() throws Exception {
        Path external = Files.createDirectories(dir.resolve("external"));
        byte[] dedicated = object(external, "dedicated.bin", 5 * MIB + 3);
        byte[] packed = object(external, "packed.bin", 100 * KIB);
        object(external, "unreadable.bin", 5 * MIB + 7);
        FlakyFileSystem.failReads(external.resolve("unreadable.bin"), Integer.MAX_VALUE, 0);
        String files = external.toUri().toString();
        String flaky = FlakyFileSystem.uri(external).toString();
        Map<String, Expected> expected = new LinkedHashMap<>();
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        input(
                inputs,
                expected,
                "unreadable",
                Expected.deadLetter("fetch-failed"),
                "blob.uri",
                flaky + "unreadable.bin");
        input(
                inputs,
                expected,
                "dedicated",
                Expected.placed(BlobKind.DEDICATED, dedicated),
                "blob.uri",
                files + "dedicated.bin");
        input(inputs, expected, "packed", Expected.placed(BlobKind.PACKED, packed), "blob.uri", files + "packed.bin");
        inputs.replaceAll(record -> new ProducerRecord<>(
                "routed-blobs", record.partition(), record.key(), record.value(), record.headers()));
        KAFKA.createTopic("routed-blobs", PARTITIONS);
        KAFKA.createTopic("routed-descriptors", 1);
        KAFKA.createTopic("routed-dead-letters", 1);
        KAFKA.send(inputs);
        Path base = dir.resolve("base");
        Configuration config = JobTestEnvironment.jobConfiguration(
                KAFKA, "routed", RollPolicy.ON_CHECKPOINT, "routed-descriptors", "routed-dead-letters", base);
        config.set(BlobKafkaOptions.INPUT_TOPIC, "routed-blobs");
        config.set(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES, List.of(files, flaky));
        config.set(IngestJobOptions.EXTERNAL_FETCH_BACKOFF, Duration.ofMillis(10));
        config.set(RawPackSinkOptions.EXACT_SHARING, ExactSharing.WITHIN_JOB);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config);

        assertTimeoutPreemptively(Duration.ofMinutes(4), () -> env.execute("routed sink"));

        assertOneOutputPerInputAndACopyDeadLettered(
                "routed-descriptors", "routed-dead-letters", base, inputs.size(), expected, "unreadable.bin");
    }

    /**
     * With {@code within-job} sharing the fetch stage hands its copies over a network hop, and an
     * aligned barrier waits behind every copy queued there: thirty copies of 1 s each, spread over
     * two writers, would hold a barrier about 15 s, past the 8 s checkpoint timeout, and a job that
     * tolerates no failed checkpoint and no restart would fail. Each copy crosses the hop only with
     * one of {@code external.fetch-concurrency} (here 1) credits, so a barrier waits behind about two
     * copies (the one awaiting its credit, the one being copied), 2 s: a factor of four below the
     * timeout, so a loaded machine does not decide the outcome.
     */
    @Test
    void withWithinJobSharingCopiesQueuedForTheWritersHoldNoCheckpointPastItsTimeout() throws Exception {
        Path external = Files.createDirectories(dir.resolve("external"));
        String flaky = FlakyFileSystem.uri(external).toString();
        Map<String, Expected> expected = new LinkedHashMap<>();
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String name = "slow-" + i + ".bin";
            byte[] bytes = object(external, name, 40 * KIB + i);
            FlakyFileSystem.trickleReads(external.resolve(name), 4 * KIB, Duration.ofMillis(100)); // 1 s per copy
            input(inputs, expected, "slow-" + i, Expected.placed(BlobKind.DEDICATED, bytes), "blob.uri", flaky + name);
        }
        inputs.replaceAll(record -> new ProducerRecord<>(
                "queued-blobs", record.partition(), record.key(), record.value(), record.headers()));
        KAFKA.createTopic("queued-blobs", PARTITIONS);
        KAFKA.createTopic("queued-descriptors", 1);
        KAFKA.createTopic("queued-dead-letters", 1);
        KAFKA.send(inputs);
        Path base = dir.resolve("base");
        Configuration config = JobTestEnvironment.jobConfiguration(
                KAFKA, "queued", RollPolicy.ON_CHECKPOINT, "queued-descriptors", "queued-dead-letters", base);
        config.set(BlobKafkaOptions.INPUT_TOPIC, "queued-blobs");
        config.set(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES, List.of(flaky));
        config.set(IngestJobOptions.INLINE_MAX_SIZE, MemorySize.parse("1kb"));
        config.set(IngestJobOptions.DEDICATED_THRESHOLD, MemorySize.parse("8kb"));
        config.set(IngestJobOptions.EXTERNAL_FETCH_CONCURRENCY, 1);
        config.set(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT, Duration.ofSeconds(6));
        config.set(RawPackSinkOptions.EXACT_SHARING, ExactSharing.WITHIN_JOB);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        config.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofSeconds(8));
        config.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 0);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config);

        assertTimeoutPreemptively(Duration.ofMinutes(4), () -> env.execute("copies behind a hop"));

        PipelineOutput output = PipelineOutput.read(KAFKA, "queued-descriptors", base);
        assertThat(output.descriptors).hasSize(inputs.size());
        assertDescriptors(output.descriptors, expected, base);
        assertThat(KAFKA.drainCommitted("queued-dead-letters")).isEmpty();
    }

    private static void input(
            List<ProducerRecord<byte[], byte[]>> inputs,
            Map<String, Expected> expected,
            String name,
            Expected outcome,
            String... headerPairs) {
        List<Header> headers = new ArrayList<>();
        headers.add(new RecordHeader("case", name.getBytes(UTF_8)));
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.add(new RecordHeader(headerPairs[i], headerPairs[i + 1].getBytes(UTF_8)));
        }
        inputs.add(new ProducerRecord<>(
                "external-blobs", inputs.size() % PARTITIONS, name.getBytes(UTF_8), null, headers));
        expected.put(name, outcome);
    }

    private static String caseOf(List<DescriptorRow.Attribute> attributes) {
        return attributes.stream()
                .filter(a -> a.name().equals("case"))
                .map(a -> new String(a.value(), UTF_8))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no case header in " + attributes));
    }

    private static byte[] object(Path directory, String name, int size) throws IOException {
        byte[] bytes = new byte[size];
        new SplittableRandom(name.hashCode()).nextBytes(bytes);
        Files.write(directory.resolve(name), bytes);
        return bytes;
    }

    private static byte[] slice(byte[] bytes, int from, int length) {
        return Arrays.copyOfRange(bytes, from, from + length);
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
