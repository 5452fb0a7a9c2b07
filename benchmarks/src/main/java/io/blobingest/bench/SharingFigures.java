package io.blobingest.bench;

import io.blobingest.sink.ExactSharing;
import java.util.List;
import java.util.Optional;

/**
 * The duplicates workload's exact-sharing comparison: blob-ingest on the same topic with {@code
 * sink.raw-pack.exact-sharing} off, {@code within-subtask} and {@code within-job}, each run the same
 * way (unbounded until its input is delivered, as in every earlier round of this comparison).
 *
 * @param inputBytes bytes of every input record's blob: record values and the External files
 *     ingest-mode records name; what the sink stores without sharing
 * @param uniqueBytes bytes of the distinct blobs among them: what storing each content once takes
 * @param duplicateRecords records whose blob an earlier record carried already
 * @param runs one per mode, {@link ExactSharing#OFF} first
 */
public record SharingFigures(long inputBytes, long uniqueBytes, long duplicateRecords, List<Run> runs) {

    public SharingFigures {
        runs = List.copyOf(runs);
        if (runs.isEmpty() || runs.get(0).mode() != ExactSharing.OFF) {
            throw new IllegalArgumentException("the first run must be the one with sharing off, found " + runs);
        }
    }

    /**
     * One blob-ingest run of the comparison.
     *
     * @param contender its figures; its name says its mode
     * @param stored what it left on storage
     * @param read the read side on its output; with sharing off, on the bounded run's output, which holds the same
     *     blobs
     */
    public record Run(ExactSharing mode, ContenderFigures contender, StoredFigures stored, ReadFigures read) {

        /** The mode's name in RESULT keys: {@code off}, {@code subtask}, {@code job}. */
        public String resultKey() {
            return switch (mode) {
                case OFF -> "off";
                case WITHIN_SUBTASK -> "subtask";
                case WITHIN_JOB -> "job";
            };
        }
    }

    public Run off() {
        return runs.get(0);
    }

    /** The runs with sharing on. */
    public List<Run> sharing() {
        return runs.subList(1, runs.size());
    }

    public Optional<Run> run(ExactSharing mode) {
        return runs.stream().filter(run -> run.mode() == mode).findFirst();
    }

    /** The ideal {@link #storedVsInput}: every distinct blob stored once, nothing else. */
    public double uniqueVsInput() {
        return (double) uniqueBytes / inputBytes;
    }

    /** Sidecar bytes on storage over the input's blob bytes. */
    public double storedVsInput(Run run) {
        return (double) run.stored().sidecarBytes() / inputBytes;
    }

    /** Sidecar bytes on storage over the distinct blobs' bytes: 1.0 is the ideal. */
    public double storedVsUnique(Run run) {
        return (double) run.stored().sidecarBytes() / uniqueBytes;
    }
}
