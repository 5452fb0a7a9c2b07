package io.blobingest.cli.demo;

/** The streams of the demo's robot fleet, and the faulty records mixed into them. */
public enum DemoRecordKind {
    /** IMU and telemetry packets, 100-500 bytes: Inline. */
    TELEMETRY("telemetry", "100-500 B", "Inline descriptor"),
    /** Camera frames, 30-600 KiB: Packed. */
    CAMERA_FRAME("camera frame", "30-600 KiB", "Packed: an entry of a Raw Pack"),
    /** A camera frame sent again (an at-least-once producer's retry): it shares the first copy's entry. */
    RESENT_FRAME("re-sent frame", "30-600 KiB", "Packed, sharing its first copy's entry (exact sharing)"),
    /** The fleet's calibration image, the same bytes from every robot: copies share a stored one's entry. */
    CALIBRATION_IMAGE("calibration image", "200-256 KiB", "Packed, copies share a stored entry (exact sharing)"),
    /** Video segments, 5-40 MiB: Dedicated. */
    VIDEO_SEGMENT("video segment", "5-40 MiB", "Dedicated sidecar"),
    /** A file in the allow-listed directory, kept where it is ({@code blob.mode=reference}): External. */
    EXTERNAL_REFERENCE("external reference", "8-256 KiB", "External descriptor (blob.mode=reference)"),
    /** A file in the allow-listed directory to be fetched and placed ({@code blob.mode=ingest}). */
    EXTERNAL_INGEST("external ingest", "1-200 KiB", "fetched and placed (blob.mode=ingest)"),
    /** A record the job must dead-letter with a known code (see {@link BadRecord}). */
    BAD("bad record", "-", "dead letter with its code");

    private final String label;
    private final String sizes;
    private final String expectedOutcome;

    DemoRecordKind(String label, String sizes, String expectedOutcome) {
        this.label = label;
        this.sizes = sizes;
        this.expectedOutcome = expectedOutcome;
    }

    /** For people: "camera frame". */
    public String label() {
        return label;
    }

    /** The range of blob sizes, for people. */
    public String sizes() {
        return sizes;
    }

    /** What the job must make of such a record, for people. */
    public String expectedOutcome() {
        return expectedOutcome;
    }
}
