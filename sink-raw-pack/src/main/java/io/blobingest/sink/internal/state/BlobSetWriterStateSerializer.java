package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackWriterState;
import io.blobingest.sink.internal.writer.PendingSidecar;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;
import org.apache.flink.core.fs.RecoverableWriter.ResumeRecoverable;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned bytes of a {@link BlobSetWriterState}; they live in the writer's checkpointed state.
 *
 * <p>VERSION_1: blob set, created-at millis, next sidecar id, finished sidecars (id, kind, length,
 * nested commit recoverable), open pack flag and, if set, its sidecar id, nested resume
 * recoverable and pack state (metadata, length, entry table), then the rows. See {@link CodecV1}.
 *
 * <p>VERSION_2: as VERSION_1, but the pack state also holds the entries' SHA-256s when the pack
 * records them ({@link CodecV2}). VERSION_1 bytes read as a pack that records none.
 *
 * <p>VERSION_3: as VERSION_2, but each row also holds its input's Kafka timestamp ({@link
 * CodecV3}). Rows of older versions read without one.
 */
@Internal
public final class BlobSetWriterStateSerializer implements SimpleVersionedSerializer<BlobSetWriterState> {

    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int VERSION_3 = 3;
    public static final int CURRENT_VERSION = VERSION_3;

    private final SimpleVersionedSerializer<CommitRecoverable> commitRecoverables;
    private final SimpleVersionedSerializer<ResumeRecoverable> resumeRecoverables;

    public BlobSetWriterStateSerializer(
            SimpleVersionedSerializer<CommitRecoverable> commitRecoverables,
            SimpleVersionedSerializer<ResumeRecoverable> resumeRecoverables) {
        this.commitRecoverables = Objects.requireNonNull(commitRecoverables, "commitRecoverables");
        this.resumeRecoverables = Objects.requireNonNull(resumeRecoverables, "resumeRecoverables");
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(BlobSetWriterState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        CodecV1.writeString(out, state.blobSet());
        out.writeLong(state.createdAtMillis());
        out.writeLong(state.nextSidecarId());
        CodecV1.writeSidecars(out, state.finishedSidecars(), commitRecoverables);
        BlobSetWriterState.OpenPackState openPack = state.openPack();
        out.writeBoolean(openPack != null);
        if (openPack != null) {
            out.writeLong(openPack.sidecarId());
            SimpleVersionedSerialization.writeVersionAndSerialize(resumeRecoverables, openPack.resumable(), out);
            CodecV2.writePackState(out, openPack.pack());
        }
        out.writeInt(state.rows().size());
        for (DescriptorRow row : state.rows()) {
            CodecV3.writeRow(out, row);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public BlobSetWriterState deserialize(int version, byte[] serialized) throws IOException {
        return switch (version) {
            case VERSION_1 -> read(VERSION_1, new DataInputDeserializer(serialized));
            case VERSION_2 -> read(VERSION_2, new DataInputDeserializer(serialized));
            case VERSION_3 -> read(VERSION_3, new DataInputDeserializer(serialized));
            default ->
                throw new IOException("unknown blob set writer state version: expected " + VERSION_1 + ", " + VERSION_2
                        + " or " + VERSION_3 + ", found " + version);
        };
    }

    private BlobSetWriterState read(int version, DataInputDeserializer in) throws IOException {
        String blobSet = CodecV1.readString(in);
        long createdAtMillis = in.readLong();
        long nextSidecarId = in.readLong();
        List<PendingSidecar> finished = CodecV1.readSidecars(in, commitRecoverables);
        BlobSetWriterState.OpenPackState openPack = null;
        if (in.readBoolean()) {
            long sidecarId = in.readLong();
            ResumeRecoverable resumable =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(resumeRecoverables, in);
            RawPackWriterState pack = version == VERSION_1 ? CodecV1.readPackState(in) : CodecV2.readPackState(in);
            openPack = new BlobSetWriterState.OpenPackState(sidecarId, resumable, pack);
        }
        int rowCount = CodecV1.readLength(in, "row list");
        List<DescriptorRow> rows = new ArrayList<>(Math.min(rowCount, 4096));
        for (int i = 0; i < rowCount; i++) {
            rows.add(version == VERSION_3 ? CodecV3.readRow(in) : CodecV1.readRow(in));
        }
        if (in.available() != 0) {
            throw new IOException("writer state of blob set '" + blobSet + "' has " + in.available()
                    + " trailing bytes after its version " + version + " fields");
        }
        return new BlobSetWriterState(blobSet, createdAtMillis, nextSidecarId, finished, openPack, rows);
    }
}
