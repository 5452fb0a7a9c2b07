package io.blobingest.cli.demo;

import java.util.List;

/**
 * What reading the demo's output back found.
 *
 * @param descriptors committed descriptor records read from the descriptor topic
 * @param blobsMatched descriptors whose blob read back through the Object Layer equals the bytes
 *     produced, with the expected kind, key, headers and crc32c
 * @param deadLetters committed records read from the dead-letter topic
 * @param deadLettersMatched dead letters of records that had to be dead-lettered, with the expected code
 * @param ingestPlaced ingest-mode External records that got a descriptor
 * @param batches {@code ObjectLayer.readAll} calls made
 * @param problems the first problems found, each naming the record
 * @param problemCount all problems found
 */
public record Verification(
        int descriptors,
        int blobsMatched,
        int deadLetters,
        int deadLettersMatched,
        int ingestPlaced,
        int batches,
        List<String> problems,
        int problemCount) {

    public Verification {
        problems = List.copyOf(problems);
    }

    /** True if every input record ended as it should and every blob read back byte-exact. */
    public boolean everyBlobMatched() {
        return problemCount == 0 && blobsMatched == descriptors && deadLettersMatched == deadLetters;
    }
}
