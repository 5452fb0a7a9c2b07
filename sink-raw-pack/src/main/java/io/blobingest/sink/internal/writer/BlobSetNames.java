package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.BlobSets;
import java.util.UUID;

/**
 * Names the blob sets one writer instance opens: {@code <run>-<subtask>-<sequence>}, where
 * {@code run} is 32 random hex digits drawn when the writer is created. A new run id on every
 * start and restore keeps names unique across jobs, subtasks and restarts without coordination;
 * at most 32 + 1 + 10 + 1 + 19 = 63 characters, within {@value BlobSets#NAME_REGEX}.
 */
final class BlobSetNames {

    private final String prefix;
    private long sequence;

    BlobSetNames(String runId, int subtask) {
        if (!runId.matches("[0-9a-f]{32}")) {
            throw new IllegalArgumentException("run id must be 32 lowercase hex digits, found \"" + runId + "\"");
        }
        if (subtask < 0) {
            throw new IllegalArgumentException("subtask must be >= 0, found " + subtask);
        }
        this.prefix = runId + "-" + subtask + "-";
    }

    /** Names for a fresh writer instance, with a random run id. */
    static BlobSetNames forNewRun(int subtask) {
        UUID uuid = UUID.randomUUID();
        return new BlobSetNames(
                String.format("%016x%016x", uuid.getMostSignificantBits(), uuid.getLeastSignificantBits()), subtask);
    }

    String next() {
        return BlobSets.requireValidName(prefix + sequence++);
    }
}
