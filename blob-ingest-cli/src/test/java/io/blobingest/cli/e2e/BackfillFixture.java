package io.blobingest.cli.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * An "old" base for backfill tests, made by the real {@code run} command: Kafka-carried blobs
 * (Inline, Packed, one Dedicated) and External references in reference mode to files on local disk
 * (whole files and ranges, of every size class), one of them to a file that is gone by the time
 * of the backfill. {@link #assertBackfilled} checks what a backfill of its manifests produced.
 * Every input carries a {@code case} header naming it.
 */
final class BackfillFixture {

    static final int PARTITIONS = 2;
    static final String MISSING = "ext-missing";
    private static final int KIB = 1024;
    private static final int CARRIED = 120;
    private static final int EXTERNAL = 60;

    final URI oldBase;
    final String externalPrefix;
    final List<DescriptorRow> oldRows;
    /** The bytes each External case names: its file, or the range of it. */
    private final Map<String, byte[]> externalBytes;
    /** The bytes of each Kafka-carried case. */
    private final Map<String, byte[]> carriedBytes;

    private BackfillFixture(
            URI oldBase,
            String externalPrefix,
            List<DescriptorRow> oldRows,
            Map<String, byte[]> externalBytes,
            Map<String, byte[]> carriedBytes) {
        this.oldBase = oldBase;
        this.externalPrefix = externalPrefix;
        this.oldRows = oldRows;
        this.externalBytes = externalBytes;
        this.carriedBytes = carriedBytes;
    }

    /**
     * Produces the inputs to topic {@code name}, runs {@code run --bounded} into {@code oldBase}
     * ({@code extraArgs} added, e.g. S3 options) and deletes the file the {@link #MISSING} case
     * references.
     */
    static BackfillFixture make(
            KafkaBrokerExtension kafka, String name, URI oldBase, Path externalDirectory, String... extraArgs)
            throws Exception {
        Path external = Files.createDirectories(externalDirectory);
        String prefix = external.toUri().toString();
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        Map<String, byte[]> carriedBytes = new LinkedHashMap<>();
        for (int i = 0; i < CARRIED; i++) {
            int size = i == 5 ? 4 * KIB * KIB + 7 : i % 10 == 0 ? 70 * KIB + i : i * 7;
            byte[] value = bytes("bytes-" + i, size);
            carriedBytes.put("bytes-" + i, value);
            inputs.add(record(
                    name,
                    inputs.size(),
                    ("bytes-" + i).getBytes(UTF_8),
                    value,
                    "case",
                    "bytes-" + i,
                    "camera",
                    "cam-" + i % 3));
        }
        Map<String, byte[]> externalBytes = new LinkedHashMap<>();
        for (int j = 0; j < EXTERNAL; j++) {
            String name0 = "ext-" + j;
            int size = j == 7 ? 4 * KIB * KIB + 10 : j % 10 == 0 ? 80 * KIB + j : 50 + j * 30;
            byte[] file = bytes(name0, size);
            Files.write(external.resolve(name0 + ".bin"), file);
            List<String> headers = new ArrayList<>(List.of(
                    "case",
                    name0,
                    "camera",
                    "cam-" + j % 3,
                    "blob.uri",
                    prefix + name0 + ".bin",
                    "blob.mode",
                    "reference"));
            byte[] expected = file;
            if (j % 4 == 1) {
                headers.addAll(List.of("blob.position", "3", "blob.size", Integer.toString(size - 5)));
                expected = Arrays.copyOfRange(file, 3, size - 2);
            }
            externalBytes.put(name0, expected);
            inputs.add(record(
                    name, inputs.size(), j == 2 ? null : name0.getBytes(UTF_8), null, headers.toArray(String[]::new)));
        }
        Files.write(external.resolve(MISSING + ".bin"), bytes(MISSING, 10));
        inputs.add(record(
                name,
                inputs.size(),
                MISSING.getBytes(UTF_8),
                null,
                "case",
                MISSING,
                "blob.uri",
                prefix + MISSING + ".bin",
                "blob.mode",
                "reference"));
        kafka.createTopic(name, PARTITIONS);
        kafka.createTopic(name + "-descriptors", 1);
        kafka.createTopic(name + "-dead-letters", 1);
        kafka.send(inputs);

        RunResult run = TestEnvironment.runArguments(
                        kafka, name, name + "-descriptors", name + "-dead-letters", oldBase)
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .bounded()
                .set("external.allowed-prefixes", prefix)
                .add(extraArgs)
                .run();
        assertThat(run.exitCode()).as(run.output()).isZero();
        Files.delete(external.resolve(MISSING + ".bin"));

        List<DescriptorRow> oldRows = manifestRows(oldBase);
        assertThat(oldRows).as("rows of the old base").hasSize(inputs.size());
        assertThat(oldRows)
                .filteredOn(row -> row.blob().kind() == BlobKind.EXTERNAL)
                .as("External references in the old base")
                .hasSize(EXTERNAL + 1);
        return new BackfillFixture(oldBase, prefix, oldRows, externalBytes, carriedBytes);
    }

    /** The descriptor manifests of the old base: what a backfill reads. */
    URI manifests() {
        return URI.create(oldBase.toString().replaceAll("/*$", "") + "/_descriptors/");
    }

    /** Rows of the manifests under {@code base}. */
    static List<DescriptorRow> manifestRows(URI base) throws IOException {
        List<DescriptorRow> rows = new ArrayList<>();
        for (org.apache.flink.core.fs.Path manifest : PipelineOutput.manifests(base)) {
            try (DescriptorManifestReader reader = DescriptorManifestReader.open(manifest)) {
                rows.addAll(reader.readAll());
            }
        }
        return rows;
    }

    /**
     * What a backfill of {@link #manifests} into {@code newBase} must have produced on {@code
     * descriptorTopic} and {@code deadLetterTopic}: every External row exactly once as an owned blob
     * whose bytes, read back through the Object Layer, are the referenced bytes, with its key,
     * attributes and source; every other row exactly once and unchanged; new manifests holding the
     * re-entered rows only; the reference to a deleted file dead-lettered as {@code not-found}.
     */
    void assertBackfilled(
            KafkaBrokerExtension kafka,
            String descriptorTopic,
            String deadLetterTopic,
            URI newBase,
            BlobStorage storage)
            throws IOException {
        List<DescriptorRow> descriptors = kafka.drainCommitted(descriptorTopic).stream()
                .map(DescriptorRecords::parse)
                .toList();
        Map<String, List<DescriptorRow>> byCase =
                descriptors.stream().collect(Collectors.groupingBy(BackfillFixture::caseOf));
        assertThat(byCase.keySet())
                .as("cases on the descriptor topic")
                .containsExactlyInAnyOrderElementsOf(outputCases());
        byCase.forEach(
                (name, rows) -> assertThat(rows).as("descriptors of %s", name).hasSize(1));

        try (ObjectLayer objectLayer = ObjectLayer.builder(storage).build()) {
            for (DescriptorRow old : oldRows) {
                String name = caseOf(old);
                if (name.equals(MISSING)) {
                    continue;
                }
                DescriptorRow now = byCase.get(name).get(0);
                if (old.blob().kind() != BlobKind.EXTERNAL) {
                    assertThat(canonical(now)).as("passed-through row %s", name).isEqualTo(canonical(old));
                    continue;
                }
                byte[] expected = externalBytes.get(name);
                assertThat(now.blob().kind())
                        .as("kind of %s", name)
                        .isEqualTo(PipelineOutput.expectedKind(expected.length));
                assertThat(now.source()).as("source of %s", name).isEqualTo(old.source());
                assertThat(now.key()).as("key of %s", name).isEqualTo(old.key());
                assertThat(attributes(now)).as("attributes of %s", name).isEqualTo(attributes(old));
                assertThat(now.crc32c()).as("crc32c of %s", name).isEqualTo(crc32c(expected));
                byte[] read = objectLayer
                        .readAll(List.of(BlobRequest.forRow(now, newBase, BlobFeatures.ALL)))
                        .get(0);
                assertThat(read)
                        .as("bytes of %s read back from %s", name, newBase)
                        .isEqualTo(expected);
            }
        }

        List<String> newManifestCases =
                manifestRows(newBase).stream().map(BackfillFixture::caseOf).toList();
        assertThat(newManifestCases)
                .as("rows of the new manifests: the re-entered ones, once each")
                .containsExactlyInAnyOrderElementsOf(externalBytes.keySet());

        List<ConsumerRecord<byte[], byte[]>> deadLetters = kafka.drainCommitted(deadLetterTopic);
        assertThat(deadLetters).as("dead letters").hasSize(1);
        ConsumerRecord<byte[], byte[]> deadLetter = deadLetters.get(0);
        assertThat(header(deadLetter, "blob.error")).isEqualTo("not-found");
        assertThat(header(deadLetter, "case")).isEqualTo(MISSING);
        assertThat(header(deadLetter, "blob.uri")).isEqualTo(externalPrefix + MISSING + ".bin");
        assertThat(header(deadLetter, "blob.position")).isEqualTo("0");
        assertThat(header(deadLetter, "blob.size")).isEqualTo("0");
        assertThat(deadLetter.key()).isEqualTo(MISSING.getBytes(UTF_8));
        assertThat(deadLetter.value()).as("value of the dead letter").isEmpty();
    }

    /**
     * What a backfill of {@link #manifests} with the Lance output must have written to the dataset
     * {@code datasetUri}, read with Lance's Java SDK alone: one row per manifest row but the
     * dead-lettered one, passed-through rows as well as re-entered ones, each with its key and
     * crc32c and, through {@code takeBlobs}, the bytes of its input (a passed-through Packed or
     * Dedicated blob read where the old base holds it, not copied); each checkpoint committed once.
     */
    void assertBackfilledIntoLance(String datasetUri) throws Exception {
        Map<String, List<LanceDatasetRows.Row>> byCase = LanceDatasetRows.read(datasetUri, Map.of()).stream()
                .collect(Collectors.groupingBy(row -> row.attribute("case")));
        Map<String, DescriptorRow> oldByCase =
                oldRows.stream().collect(Collectors.toMap(BackfillFixture::caseOf, Function.identity()));
        assertThat(byCase.keySet()).as("cases in the Lance dataset").containsExactlyInAnyOrderElementsOf(outputCases());
        byCase.forEach((name, rows) -> {
            assertThat(rows).as("Lance rows of %s", name).hasSize(1);
            LanceDatasetRows.Row row = rows.get(0);
            DescriptorRow old = oldByCase.get(name);
            byte[] expected = old.blob().kind() == BlobKind.EXTERNAL ? externalBytes.get(name) : carriedBytes.get(name);
            assertThat(row.blob()).as("bytes of %s through takeBlobs", name).isEqualTo(expected);
            assertThat(row.crc32c()).as("crc32c of %s", name).isEqualTo(crc32c(expected));
            assertThat(row.key()).as("key of %s", name).isEqualTo(old.key());
        });
        LanceOutputITCase.assertEachCheckpointCommittedOnce(datasetUri, Map.of());
    }

    /** The cases a backfill outputs: every one but {@link #MISSING}, which is dead-lettered. */
    private List<String> outputCases() {
        return oldRows.stream()
                .map(BackfillFixture::caseOf)
                .filter(c -> !c.equals(MISSING))
                .toList();
    }

    static String caseOf(DescriptorRow row) {
        return row.attributes().stream()
                .filter(a -> a.name().equals("case"))
                .map(a -> new String(a.value(), UTF_8))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no case attribute in " + row.attributes()));
    }

    /** Every field of a row as text, for equality of rows that hold byte arrays. */
    static String canonical(DescriptorRow row) {
        return String.join(
                "|",
                row.source(),
                row.blob().toString(),
                String.valueOf(row.blobSet()),
                String.valueOf(row.crc32c()),
                hex(row.key()),
                hex(row.inlineData()),
                attributes(row));
    }

    private static String attributes(DescriptorRow row) {
        return row.attributes().stream()
                .map(a -> a.name() + "=" + hex(a.value()))
                .collect(Collectors.joining(","));
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), UTF_8);
    }

    private static ProducerRecord<byte[], byte[]> record(
            String topic, int index, byte[] key, byte[] value, String... headerPairs) {
        List<Header> headers = new ArrayList<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.add(new RecordHeader(headerPairs[i], headerPairs[i + 1].getBytes(UTF_8)));
        }
        return new ProducerRecord<>(topic, index % PARTITIONS, key, value, headers);
    }

    private static byte[] bytes(String name, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(name.hashCode()).nextBytes(bytes);
        return bytes;
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
