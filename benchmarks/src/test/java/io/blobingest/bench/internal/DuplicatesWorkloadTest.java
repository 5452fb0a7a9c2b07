package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.bench.internal.DuplicatesWorkload.Kind;
import io.blobingest.placement.BlobHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuplicatesWorkloadTest {

    private static final int PARTITIONS = 2;
    private static final int COUNT = 2_000;

    @TempDir
    Path dir;

    @Test
    void thirtyPercentOfTheRecordsRepeatAnEarlierBlobInThreeEqualParts() throws Exception {
        DuplicatesWorkload workload = new DuplicatesWorkload(42, PARTITIONS, COUNT, dir.resolve("external"));
        workload.writeFiles();

        Map<Kind, Integer> kinds = new EnumMap<>(Kind.class);
        for (int i = 0; i < COUNT; i++) {
            kinds.merge(workload.kind(i), 1, Integer::sum);
        }
        assertThat(workload.duplicates()).isEqualTo(600);
        assertThat(kinds.get(Kind.RESEND)).isEqualTo(200);
        assertThat(kinds.get(Kind.FILE_AGAIN)).isEqualTo(200);
        assertThat(kinds.get(Kind.HOT)).isEqualTo(200 + DuplicatesWorkload.MAX_HOT_BLOBS);
        assertThat(kinds.get(Kind.NEW_FILE)).isEqualTo(200).isEqualTo(workload.files());
        assertThat(workload.externalRecords()).isEqualTo(400);

        // What the records carry, counted from their bytes: the workload's own figures agree.
        Set<String> seen = new HashSet<>();
        long blobBytes = 0;
        long uniqueBytes = 0;
        int duplicates = 0;
        for (int i = 0; i < COUNT; i++) {
            byte[] blob = carried(workload.record("t", PARTITIONS, i));
            assertThat(blob).as("record %d", i).isEqualTo(workload.blob(i));
            blobBytes += blob.length;
            if (seen.add(sha256(blob))) {
                uniqueBytes += blob.length;
            } else {
                duplicates++;
            }
        }
        assertThat(duplicates).isEqualTo(workload.duplicates());
        assertThat(blobBytes).isEqualTo(workload.blobBytes());
        assertThat(uniqueBytes).isEqualTo(workload.uniqueBytes());
        assertThat((double) uniqueBytes / blobBytes).isCloseTo(0.7, Offset.offset(0.03));
    }

    @Test
    void everyBlobIsStoredNotInlineAndAtMostAMebibyte() {
        DuplicatesWorkload workload = new DuplicatesWorkload(7, PARTITIONS, COUNT, dir);

        for (int i = 0; i < COUNT; i++) {
            assertThat(workload.blob(i).length).isBetween(64 * 1024 + 1, 1024 * 1024);
        }
    }

    @Test
    void aReSentRecordKeepsItsOriginalsKeyAndPartitionAndAHotBlobIsSentOnEveryPartition() {
        DuplicatesWorkload workload = new DuplicatesWorkload(42, PARTITIONS, COUNT, dir);

        Map<String, ProducerRecord<byte[], byte[]>> byKey = new HashMap<>();
        Map<String, Set<Integer>> hotPartitions = new HashMap<>();
        for (int i = 0; i < COUNT; i++) {
            ProducerRecord<byte[], byte[]> record = workload.record("t", PARTITIONS, i);
            assertThat(record.partition()).isEqualTo(i % PARTITIONS);
            String key = new String(record.key(), StandardCharsets.UTF_8);
            switch (workload.kind(i)) {
                case VALUE -> byKey.put(key, record);
                case RESEND -> {
                    ProducerRecord<byte[], byte[]> original = byKey.get(key);
                    assertThat(original)
                            .as("record %d re-sends an earlier one", i)
                            .isNotNull();
                    assertThat(record.partition()).isEqualTo(original.partition());
                    assertThat(record.value()).isEqualTo(original.value());
                }
                case HOT ->
                    hotPartitions
                            .computeIfAbsent(sha256(record.value()), blob -> new HashSet<>())
                            .add(record.partition());
                default -> {}
            }
        }
        assertThat(hotPartitions).hasSize(DuplicatesWorkload.MAX_HOT_BLOBS);
        assertThat(hotPartitions.values())
                .allSatisfy(partitions -> assertThat(partitions).containsExactlyInAnyOrder(0, 1));
    }

    @Test
    void theSameSeedPlansTheSameWorkloadAndAnotherSeedAnother() {
        DuplicatesWorkload first = new DuplicatesWorkload(7, PARTITIONS, 100, dir);
        DuplicatesWorkload again = new DuplicatesWorkload(7, PARTITIONS, 100, dir);
        DuplicatesWorkload other = new DuplicatesWorkload(8, PARTITIONS, 100, dir);

        for (int i = 0; i < 100; i++) {
            assertThat(again.kind(i)).isEqualTo(first.kind(i));
            assertThat(again.blob(i)).isEqualTo(first.blob(i));
        }
        assertThat(other.uniqueBytes()).isNotEqualTo(first.uniqueBytes());
    }

    @Test
    void aWorkloadPlannedForSomePartitionsRefusesOthers() {
        DuplicatesWorkload workload = new DuplicatesWorkload(7, PARTITIONS, 100, dir);

        assertThatThrownBy(() -> workload.record("t", 3, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("planned for 2 partitions");
    }

    @Test
    void countIsChosenSoThatTheBlobsAddUpToAboutTheBytesAskedFor() {
        DuplicatesWorkload workload = DuplicatesWorkload.ofTotalBytes(42, PARTITIONS, 1L << 30, dir);

        assertThat(workload.count()).isEqualTo(1_928);
        assertThat((double) workload.blobBytes()).isCloseTo(1L << 30, Offset.offset(0.05 * (1L << 30)));
    }

    /** The blob a record carries: its value, or the file its External header names. */
    private static byte[] carried(ProducerRecord<byte[], byte[]> record) throws Exception {
        Header uri = record.headers().lastHeader(BlobHeaders.URI);
        if (uri == null) {
            return record.value();
        }
        assertThat(record.value()).isEmpty();
        assertThat(new String(record.headers().lastHeader(BlobHeaders.MODE).value(), StandardCharsets.UTF_8))
                .isEqualTo(BlobHeaders.MODE_INGEST);
        return Files.readAllBytes(Path.of(URI.create(new String(uri.value(), StandardCharsets.UTF_8))));
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
