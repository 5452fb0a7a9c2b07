package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriterState;
import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.SidecarKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The field encodings shared by VERSION_1 of the writer state and committable serializers. Frozen: a later version that
 * needs another encoding gets
 * a new codec, and this one stays to read old bytes.
 *
 * <p>Strings and byte arrays are an int length then the bytes (UTF-8 for strings); nullable values
 * are a boolean presence flag first. File system recoverables are nested with their own serializer
 * version ({@link SimpleVersionedSerialization}).
 */
@Internal
public final class CodecV1 {

    /** Guards against allocating absurd arrays from corrupt input. */
    private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    private CodecV1() {}

    public static void writeString(DataOutputView out, String value) throws IOException {
        writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    public static String readString(DataInputView in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    static void writeBytes(DataOutputView out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }

    static byte[] readBytes(DataInputView in) throws IOException {
        int length = readLength(in, "byte array");
        byte[] value = new byte[length];
        in.readFully(value);
        return value;
    }

    static void writeNullableBytes(DataOutputView out, byte[] value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            writeBytes(out, value);
        }
    }

    static byte[] readNullableBytes(DataInputView in) throws IOException {
        return in.readBoolean() ? readBytes(in) : null;
    }

    static int readLength(DataInputView in, String what) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_ARRAY_LENGTH) {
            throw new IOException("corrupt " + what + " length: expected 0.." + MAX_ARRAY_LENGTH + ", found " + length);
        }
        return length;
    }

    static void writeSidecar(
            DataOutputView out, PendingSidecar sidecar, SimpleVersionedSerializer<CommitRecoverable> recoverables)
            throws IOException {
        out.writeLong(sidecar.sidecarId());
        out.writeByte(sidecar.kind().code());
        out.writeLong(sidecar.length());
        SimpleVersionedSerialization.writeVersionAndSerialize(recoverables, sidecar.recoverable(), out);
    }

    static PendingSidecar readSidecar(DataInputView in, SimpleVersionedSerializer<CommitRecoverable> recoverables)
            throws IOException {
        long sidecarId = in.readLong();
        SidecarKind kind = SidecarKind.fromCode(in.readUnsignedByte());
        long length = in.readLong();
        CommitRecoverable recoverable = SimpleVersionedSerialization.readVersionAndDeSerialize(recoverables, in);
        return new PendingSidecar(sidecarId, kind, length, recoverable);
    }

    static void writeSidecars(
            DataOutputView out,
            List<PendingSidecar> sidecars,
            SimpleVersionedSerializer<CommitRecoverable> recoverables)
            throws IOException {
        out.writeInt(sidecars.size());
        for (PendingSidecar sidecar : sidecars) {
            writeSidecar(out, sidecar, recoverables);
        }
    }

    static List<PendingSidecar> readSidecars(
            DataInputView in, SimpleVersionedSerializer<CommitRecoverable> recoverables) throws IOException {
        int count = readLength(in, "sidecar list");
        List<PendingSidecar> sidecars = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            sidecars.add(readSidecar(in, recoverables));
        }
        return sidecars;
    }

    static void writePackState(DataOutputView out, RawPackWriterState state) throws IOException {
        RawPackMetadata metadata = state.metadata();
        writeString(out, metadata.blobSet());
        out.writeLong(metadata.blobId());
        writeString(out, metadata.createdBy());
        out.writeLong(state.length());
        out.writeInt(state.entryCount());
        for (int i = 0; i < state.entryCount(); i++) {
            out.writeLong(state.entryOffset(i));
            out.writeLong(state.entryLength(i));
            out.writeInt(state.entryCrc32c(i));
        }
    }

    static RawPackWriterState readPackState(DataInputView in) throws IOException {
        RawPackMetadata metadata = new RawPackMetadata(readString(in), in.readLong(), readString(in));
        long length = in.readLong();
        int entryCount = readLength(in, "pack entry table");
        long[] offsets = new long[entryCount];
        long[] lengths = new long[entryCount];
        int[] crcs = new int[entryCount];
        for (int i = 0; i < entryCount; i++) {
            offsets[i] = in.readLong();
            lengths[i] = in.readLong();
            crcs[i] = in.readInt();
        }
        return new RawPackWriterState(metadata, length, offsets, lengths, crcs);
    }

    static void writeRow(DataOutputView out, DescriptorRow row) throws IOException {
        writeNullableBytes(out, row.key());
        writeString(out, row.sourceTopic());
        out.writeInt(row.sourcePartition());
        out.writeLong(row.sourceOffset());
        BlobDescriptor blob = row.blob();
        out.writeByte(blob.kind().value());
        out.writeLong(blob.position());
        out.writeLong(blob.size());
        out.writeLong(blob.blobId());
        writeString(out, blob.blobUri());
        out.writeBoolean(row.blobSet() != null);
        if (row.blobSet() != null) {
            writeString(out, row.blobSet());
        }
        writeNullableBytes(out, row.inlineData());
        out.writeBoolean(row.crc32c() != null);
        if (row.crc32c() != null) {
            out.writeLong(row.crc32c());
        }
        out.writeInt(row.attributes().size());
        for (DescriptorRow.Attribute attribute : row.attributes()) {
            writeString(out, attribute.name());
            writeNullableBytes(out, attribute.value());
        }
    }

    static DescriptorRow readRow(DataInputView in) throws IOException {
        byte[] key = readNullableBytes(in);
        String topic = readString(in);
        int partition = in.readInt();
        long offset = in.readLong();
        BlobKind kind = BlobKind.fromValue(in.readUnsignedByte());
        BlobDescriptor blob = new BlobDescriptor(kind, in.readLong(), in.readLong(), in.readLong(), readString(in));
        String blobSet = in.readBoolean() ? readString(in) : null;
        byte[] inlineData = readNullableBytes(in);
        Long crc32c = in.readBoolean() ? in.readLong() : null;
        int attributeCount = readLength(in, "attribute list");
        List<DescriptorRow.Attribute> attributes = new ArrayList<>(Math.min(attributeCount, 64));
        for (int i = 0; i < attributeCount; i++) {
            attributes.add(new DescriptorRow.Attribute(readString(in), readNullableBytes(in)));
        }
        return new DescriptorRow(key, topic, partition, offset, null, blob, blobSet, inlineData, crc32c, attributes);
    }
}
