package io.blobingest.sink.internal.writer;

import org.apache.flink.annotation.Internal;

/** What a sidecar file holds. The codes are part of the serialized state; never reuse one. */
@Internal
public enum SidecarKind {
    /** A Raw Pack v1: many Packed entries and a footer. */
    RAW_PACK(1),
    /** Exactly one Dedicated blob's bytes. */
    DEDICATED(2);

    private final int code;

    SidecarKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static SidecarKind fromCode(int code) {
        for (SidecarKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown sidecar kind code " + code + " (expected 1 or 2)");
    }
}
