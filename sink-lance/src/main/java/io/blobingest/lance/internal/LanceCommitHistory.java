package io.blobingest.lance.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.lance.Dataset;
import org.lance.Transaction;
import org.lance.Version;

/**
 * Which checkpoints of a job a Lance dataset already holds, read from the properties of the
 * transactions that made its versions (as Iceberg's Flink committer reads its snapshot summaries).
 */
final class LanceCommitHistory {

    static final String JOB_ID = "blob-ingest.job-id";
    static final String CHECKPOINT_ID = "blob-ingest.checkpoint-id";

    private LanceCommitHistory() {}

    static Map<String, String> properties(PendingCommit commit) {
        return Map.of(JOB_ID, commit.jobId(), CHECKPOINT_ID, Long.toString(commit.checkpointId()));
    }

    /**
     * The highest checkpoint of {@code jobId} committed to {@code dataset}: the newest version
     * made by that job holds it, since a job commits its checkpoints in order. Walks the versions
     * still present from the newest down; empty if none of them is the job's.
     */
    static OptionalLong lastCommittedCheckpoint(Dataset dataset, String jobId) {
        List<Version> versions = dataset.listVersions();
        versions.sort(Comparator.comparingLong(Version::getId).reversed());
        for (Version version : versions) {
            Optional<Map<String, String>> properties = transactionProperties(dataset, version.getId());
            if (properties.isPresent() && jobId.equals(properties.get().get(JOB_ID))) {
                return OptionalLong.of(Long.parseLong(properties.get().get(CHECKPOINT_ID)));
            }
        }
        return OptionalLong.empty();
    }

    private static Optional<Map<String, String>> transactionProperties(Dataset dataset, long version) {
        try (Dataset at = dataset.checkoutVersion(version)) {
            Optional<Transaction> transaction = at.readTransaction();
            if (transaction.isEmpty()) {
                return Optional.empty();
            }
            try (Transaction t = transaction.get()) {
                return t.transactionProperties();
            }
        }
    }
}
