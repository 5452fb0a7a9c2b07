package io.blobingest.sink;

import org.apache.flink.annotation.PublicEvolving;

/** When the sink closes a blob set and hands it to the committer. */
@PublicEvolving
public enum RollPolicy {
    /**
     * Every checkpoint (and the end of input) closes the open blob set: its descriptors are
     * committed and emitted one checkpoint after they were written. Writer state stays empty.
     */
    ON_CHECKPOINT("on-checkpoint"),
    /**
     * A blob set stays open across checkpoints until its Raw Pack would exceed the pack target
     * size or it has been open for the roll interval (checked at checkpoints); the open pack is
     * persisted into writer state at each checkpoint. Fewer, larger packs; later descriptors.
     */
    SIZE_OR_TIME("size-or-time");

    private final String configValue;

    RollPolicy(String configValue) {
        this.configValue = configValue;
    }

    /** The configuration value, e.g. {@code on-checkpoint}; Flink matches it case-insensitively. */
    @Override
    public String toString() {
        return configValue;
    }
}
