package io.blobingest.placement;

/** Where the pipeline puts a blob. */
public enum Placement {
    /** Small: bytes travel beside the descriptor ({@code inline_data}). */
    INLINE,
    /** Medium: an entry of a Raw Pack. */
    PACKED,
    /** Large: a sidecar of its own. */
    DEDICATED,
    /** Reference mode: the bytes stay where they are; only the reference is kept. */
    EXTERNAL
}
