package io.blobingest.cli.demo;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.placement.BlobHeaders;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Checks the demo's output against its input, regenerated from the seed: every record has exactly
 * one outcome, a descriptor or a dead letter, and the right one; every descriptor's blob, read back
 * through the Object Layer in {@code readAll} batches, equals the bytes produced.
 */
public final class DemoVerifier {

    private static final long MAX_BATCH_BYTES = 64L * 1024 * 1024;
    private static final int MAX_BATCH_BLOBS = 256;
    private static final int MAX_PROBLEMS_KEPT = 20;
    private static final Duration READ_TO_END_TIMEOUT = Duration.ofSeconds(30);

    private final DemoWorkload workload;
    private final URI base;
    private final String bootstrapServers;

    /** @param base the storage root the job wrote to */
    public DemoVerifier(DemoWorkload workload, URI base, String bootstrapServers) {
        this.workload = workload;
        this.base = base;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Reads both topics until every record of the workload is accounted for (or {@code timeout}
     * passes), then up to their last stable offsets, and checks what was read.
     */
    public Verification verify(String descriptorTopic, String deadLetterTopic, Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> descriptorRecords = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> deadLetterRecords = new ArrayList<>();
        try (CommittedTopic descriptors = new CommittedTopic(bootstrapServers, descriptorTopic);
                CommittedTopic deadLetters = new CommittedTopic(bootstrapServers, deadLetterTopic)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (descriptorRecords.size() + deadLetterRecords.size() < workload.count()
                    && System.nanoTime() < deadline) {
                descriptorRecords.addAll(descriptors.poll(Duration.ofMillis(200)));
                deadLetterRecords.addAll(deadLetters.poll(Duration.ofMillis(200)));
            }
            descriptorRecords.addAll(descriptors.readToEnd(READ_TO_END_TIMEOUT));
            deadLetterRecords.addAll(deadLetters.readToEnd(READ_TO_END_TIMEOUT));
        }
        return check(descriptorRecords, deadLetterRecords);
    }

    /** Checks records already read from the descriptor and dead-letter topics. */
    public Verification check(
            List<ConsumerRecord<byte[], byte[]>> descriptorRecords,
            List<ConsumerRecord<byte[], byte[]>> deadLetterRecords) {
        return new Check(descriptorRecords, deadLetterRecords).run();
    }

    /** One verification: the records read, and what was found so far. */
    private final class Check {
        private final List<ConsumerRecord<byte[], byte[]>> descriptorRecords;
        private final List<ConsumerRecord<byte[], byte[]>> deadLetterRecords;
        private final TreeMap<Integer, DescriptorRow> descriptors = new TreeMap<>();
        private final TreeMap<Integer, String> deadLetterCodes = new TreeMap<>();
        private final List<String> problems = new ArrayList<>();
        private int problemCount;
        private int blobsMatched;
        private int deadLettersMatched;
        private int ingestPlaced;
        private int batches;

        Check(
                List<ConsumerRecord<byte[], byte[]>> descriptorRecords,
                List<ConsumerRecord<byte[], byte[]>> deadLetterRecords) {
            this.descriptorRecords = descriptorRecords;
            this.deadLetterRecords = deadLetterRecords;
        }

        Verification run() {
            indexDescriptors();
            indexDeadLetters();
            for (int i = 0; i < workload.count(); i++) {
                checkOutcome(i);
            }
            readBack();
            return new Verification(
                    descriptorRecords.size(),
                    blobsMatched,
                    deadLetterRecords.size(),
                    deadLettersMatched,
                    ingestPlaced,
                    batches,
                    problems,
                    problemCount);
        }

        private void indexDescriptors() {
            for (ConsumerRecord<byte[], byte[]> record : descriptorRecords) {
                String where = "descriptor " + record.topic() + "/" + record.partition() + "/" + record.offset();
                DescriptorRow row;
                try {
                    row = DescriptorRecords.parse(record);
                } catch (IllegalArgumentException e) {
                    problem(e.getMessage());
                    continue;
                }
                int index = knownIndex(DemoWorkload.indexOf(row.attributes()), where);
                if (index >= 0 && descriptors.put(index, row) != null) {
                    problem(describe(index) + ": a second descriptor, " + where);
                }
            }
        }

        private void indexDeadLetters() {
            for (ConsumerRecord<byte[], byte[]> record : deadLetterRecords) {
                String where = "dead letter " + record.topic() + "/" + record.partition() + "/" + record.offset();
                List<DescriptorRow.Attribute> headers = new ArrayList<>();
                String code = null;
                for (Header header : record.headers()) {
                    headers.add(new DescriptorRow.Attribute(header.key(), header.value()));
                    if (header.key().equals(BlobHeaders.ERROR) && header.value() != null) {
                        code = new String(header.value(), StandardCharsets.UTF_8);
                    }
                }
                int index = knownIndex(DemoWorkload.indexOf(headers), where);
                if (index >= 0 && deadLetterCodes.put(index, String.valueOf(code)) != null) {
                    problem(describe(index) + ": a second dead letter, " + where);
                }
            }
        }

        private int knownIndex(int index, String where) {
            if (index < 0 || index >= workload.count()) {
                problem(where + " names no record of this demo (header " + DemoWorkload.SEQ_HEADER + ")");
                return -1;
            }
            return index;
        }

        private void checkOutcome(int index) {
            DescriptorRow row = descriptors.get(index);
            String code = deadLetterCodes.get(index);
            if (row != null && code != null) {
                problem(describe(index) + ": has both a descriptor and a dead letter (" + code + ")");
                return;
            }
            switch (workload.kind(index)) {
                case BAD -> {
                    String expected = workload.fault(index).expectedCode().wireName();
                    if (expected.equals(code)) {
                        deadLettersMatched++;
                    } else {
                        problem(describe(index) + ": expected a dead letter " + expected + ", found "
                                + (row != null ? "a descriptor" : code == null ? "nothing" : "dead letter " + code));
                    }
                }
                case EXTERNAL_INGEST -> {
                    if (row != null) {
                        ingestPlaced++;
                    } else {
                        problem(describe(index) + ": expected a descriptor of the fetched bytes, found "
                                + (code == null ? "nothing" : "dead letter " + code));
                    }
                }
                default -> {
                    BlobKind expected = workload.expectedKind(index);
                    if (row == null) {
                        problem(describe(index) + ": expected a " + expected + " descriptor, found "
                                + (code == null ? "nothing" : "dead letter " + code));
                    } else if (row.blob().kind() != expected) {
                        problem(describe(index) + ": expected a " + expected + " descriptor, found " + row.blob());
                    }
                }
            }
        }

        /** Reads every descriptor's blob, in batches bounded in count and bytes. */
        private void readBack() {
            try (ObjectLayer objectLayer =
                    ObjectLayer.builder(new LocalBlobStorage()).build()) {
                List<Integer> batch = new ArrayList<>();
                long batchBytes = 0;
                for (var entry : descriptors.entrySet()) {
                    long size = workload.size(entry.getKey());
                    if (!batch.isEmpty() && (batch.size() == MAX_BATCH_BLOBS || batchBytes + size > MAX_BATCH_BYTES)) {
                        readBatch(objectLayer, batch);
                        batch.clear();
                        batchBytes = 0;
                    }
                    batch.add(entry.getKey());
                    batchBytes += size;
                }
                if (!batch.isEmpty()) {
                    readBatch(objectLayer, batch);
                }
            }
        }

        private void readBatch(ObjectLayer objectLayer, List<Integer> indexes) {
            List<BlobRequest> requests = new ArrayList<>(indexes.size());
            for (int index : indexes) {
                DescriptorRow row = descriptors.get(index);
                requests.add(BlobRequest.forRow(row, base, Set.copyOf(row.requiredFeatures())));
            }
            batches++;
            List<byte[]> blobs;
            try {
                blobs = objectLayer.readAll(requests);
            } catch (IOException | RuntimeException e) {
                problem("reading records " + indexes.get(0) + ".." + indexes.get(indexes.size() - 1)
                        + " through the Object Layer failed: " + e.getMessage());
                return;
            }
            for (int k = 0; k < indexes.size(); k++) {
                if (matches(indexes.get(k), descriptors.get(indexes.get(k)), blobs.get(k))) {
                    blobsMatched++;
                }
            }
        }

        private boolean matches(int index, DescriptorRow row, byte[] blob) {
            byte[] expected = workload.expectedBytes(index);
            int difference = Arrays.mismatch(expected, blob);
            if (difference >= 0) {
                problem(describe(index) + ": read back " + blob.length + " bytes that differ from the "
                        + expected.length + " produced, first at byte " + difference + " (" + row.blob() + ")");
                return false;
            }
            Long expectedCrc = row.blob().kind() == BlobKind.EXTERNAL ? null : crc32c(expected);
            if (!Objects.equals(row.crc32c(), expectedCrc)) {
                problem(describe(index) + ": crc32c " + row.crc32c() + ", expected " + expectedCrc);
                return false;
            }
            if (!Arrays.equals(row.key(), workload.key(index))) {
                problem(describe(index) + ": the descriptor's key differs from the record's");
                return false;
            }
            if (!sameAttributes(row.attributes(), workload.passedThroughHeaders(index))) {
                problem(describe(index) + ": the descriptor's headers differ from the record's passed-through headers");
                return false;
            }
            if (row.blob().kind() == BlobKind.EXTERNAL && !row.blob().blobUri().equals(workload.uri(index))) {
                problem(describe(index) + ": the descriptor references another file than the record");
                return false;
            }
            return true;
        }

        private String describe(int index) {
            return "record " + index + " (" + workload.kind(index).label() + ")";
        }

        private void problem(String text) {
            problemCount++;
            if (problems.size() < MAX_PROBLEMS_KEPT) {
                problems.add(text);
            }
        }
    }

    private static boolean sameAttributes(List<DescriptorRow.Attribute> found, List<DescriptorRow.Attribute> expected) {
        if (found.size() != expected.size()) {
            return false;
        }
        for (int i = 0; i < found.size(); i++) {
            if (!found.get(i).name().equals(expected.get(i).name())
                    || !Arrays.equals(found.get(i).value(), expected.get(i).value())) {
                return false;
            }
        }
        return true;
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
