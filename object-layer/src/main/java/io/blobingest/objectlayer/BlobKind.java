package io.blobingest.objectlayer;

/** Where a blob lives, with Lance Blob v2's numeric values. Says placement only, not encoding. */
public enum BlobKind {
    INLINE(0),
    PACKED(1),
    DEDICATED(2),
    EXTERNAL(3);

    private final int value;

    BlobKind(int value) {
        this.value = value;
    }

    /** The {@code uint8} stored in the descriptor's {@code kind} field. */
    public int value() {
        return value;
    }

    public static BlobKind fromValue(int value) {
        for (BlobKind kind : values()) {
            if (kind.value == value) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown blob kind " + value + " (expected 0..3)");
    }
}
