package io.blobingest.placement;

/** An input record after classification: either placed or dead-lettered, never both. */
public sealed interface ClassifiedRecord permits PlacedBlob, DeadLetter {

    /** The input record exactly as it arrived. */
    BlobRecord record();
}
