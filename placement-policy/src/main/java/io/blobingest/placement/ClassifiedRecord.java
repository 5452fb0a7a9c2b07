package io.blobingest.placement;

/**
 * An input record after classification: placed, dead-lettered, or (an {@code ingest}-mode external
 * blob) waiting for its bytes to be fetched.
 */
public sealed interface ClassifiedRecord permits PlacedBlob, DeadLetter, ExternalFetch {

    /** The input record exactly as it arrived. */
    BlobRecord record();
}
