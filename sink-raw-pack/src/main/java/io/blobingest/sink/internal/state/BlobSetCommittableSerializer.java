package io.blobingest.sink.internal.state;

import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.writer.PendingSidecar;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned bytes of a {@link BlobSetCommittable}; they live in the committer's checkpointed state.
 *
 * <p>VERSION_1: base path, blob set, row count, sidecars (id, kind, length, nested commit
 * recoverable), manifest length, nested manifest commit recoverable. See {@link CodecV1}.
 *
 * <p>VERSION_2: as VERSION_1, then the writer's sharing index size at the seal (a long, {@link
 * BlobSetCommittable#NO_SHARING_INDEX} without sharing). VERSION_1 bytes read as a set without one.
 */
@Internal
public final class BlobSetCommittableSerializer implements SimpleVersionedSerializer<BlobSetCommittable> {

    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int CURRENT_VERSION = VERSION_2;

    private final SimpleVersionedSerializer<CommitRecoverable> recoverables;

    /** @param recoverables the file system's {@code getCommitRecoverableSerializer()} */
    public BlobSetCommittableSerializer(SimpleVersionedSerializer<CommitRecoverable> recoverables) {
        this.recoverables = Objects.requireNonNull(recoverables, "recoverables");
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(BlobSetCommittable committable) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        CodecV1.writeString(out, committable.basePath());
        CodecV1.writeString(out, committable.blobSet());
        out.writeLong(committable.rowCount());
        CodecV1.writeSidecars(out, committable.sidecars(), recoverables);
        out.writeLong(committable.manifestLength());
        SimpleVersionedSerialization.writeVersionAndSerialize(recoverables, committable.manifest(), out);
        out.writeLong(committable.sharingIndexEntries());
        return out.getCopyOfBuffer();
    }

    @Override
    public BlobSetCommittable deserialize(int version, byte[] serialized) throws IOException {
        return switch (version) {
            case VERSION_1 -> read(VERSION_1, new DataInputDeserializer(serialized));
            case VERSION_2 -> read(VERSION_2, new DataInputDeserializer(serialized));
            default ->
                throw new IOException("unknown blob set committable version: expected " + VERSION_1 + " or " + VERSION_2
                        + ", found " + version);
        };
    }

    private BlobSetCommittable read(int version, DataInputDeserializer in) throws IOException {
        String basePath = CodecV1.readString(in);
        String blobSet = CodecV1.readString(in);
        long rowCount = in.readLong();
        List<PendingSidecar> sidecars = CodecV1.readSidecars(in, recoverables);
        long manifestLength = in.readLong();
        CommitRecoverable manifest = SimpleVersionedSerialization.readVersionAndDeSerialize(recoverables, in);
        long sharingIndexEntries = version == VERSION_1 ? BlobSetCommittable.NO_SHARING_INDEX : in.readLong();
        if (in.available() != 0) {
            throw new IOException("blob set committable '" + blobSet + "' has " + in.available()
                    + " trailing bytes after its version " + version + " fields");
        }
        return new BlobSetCommittable(
                basePath, blobSet, rowCount, sidecars, manifestLength, manifest, sharingIndexEntries);
    }
}
