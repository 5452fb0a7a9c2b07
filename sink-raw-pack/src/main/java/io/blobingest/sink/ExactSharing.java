package io.blobingest.sink;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Whether a blob whose content equals one the job already stored gets a descriptor naming that
 * stored object instead of new bytes (docs/raw-pack-sink.md, "Exact sharing"). Identity is size
 * plus SHA-256; only Packed and Dedicated blobs are shared, never Inline ones (their bytes are in
 * the row).
 */
@PublicEvolving
public enum ExactSharing {
    /** Every blob is stored again. */
    OFF("off"),
    /**
     * Each writer subtask shares what it stored itself: identical blobs meet when they arrive at the
     * same subtask, with no extra network hop.
     */
    WITHIN_SUBTASK("within-subtask"),
    /**
     * Blobs are routed to writer subtasks by their content (crc32c and size), so identical blobs from
     * any input partition meet at one subtask and are stored once by the job.
     */
    WITHIN_JOB("within-job");

    private final String configValue;

    ExactSharing(String configValue) {
        this.configValue = configValue;
    }

    /** The configuration value, e.g. {@code within-job}; Flink matches it case-insensitively. */
    @Override
    public String toString() {
        return configValue;
    }
}
