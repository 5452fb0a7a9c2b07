package io.blobingest.bench;

import java.util.Locale;

/** The workloads of {@code ./blob-ingest bench}: what the input topic is preloaded with. */
public enum BenchWorkload {
    /**
     * The demo's robotics mix: telemetry, camera frames (some repeated, stored again without exact
     * sharing), video segments, External records, bad records.
     */
    MIXED("the demo's robotics mix (telemetry 100-500 B, frames 30-600 KiB, some repeated, video 5-40 MiB,"
            + " External and bad records)"),
    /** 4-64 KiB blobs: Inline under the default threshold, so the bench lowers it to make them Packed. */
    SMALL("4-64 KiB blobs; blob-ingest runs with placement.inline-max-size=1kb so that every blob is Packed"),
    /** 64 KiB - 1 MiB blobs: Packed under the defaults. */
    FRAMES("64 KiB - 1 MiB blobs, Packed under the defaults"),
    /**
     * Frames-sized blobs, 30% of the records exact duplicates (re-sent records, a hot set on every partition, repeated
     * ingest-mode External files); blob-ingest runs with each exact sharing mode.
     */
    DUPLICATES("64 KiB - 1 MiB blobs, 30% of the records exact duplicates of an earlier one: re-sent records (same"
            + " partition), a hot set sent on every partition, External files named again (blob.mode=ingest);"
            + " blob-ingest runs with sink.raw-pack.exact-sharing off, within-subtask and within-job");

    private final String description;

    BenchWorkload(String description) {
        this.description = description;
    }

    /** The name on the command line and in RESULT lines. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String description() {
        return description;
    }
}
