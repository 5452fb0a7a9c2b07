package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.sink.internal.sharing.ContentId;
import io.blobingest.sink.internal.sharing.StoredObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned bytes of a writer subtask's state parts ({@link WriterState}).
 *
 * <ul>
 *   <li>VERSION_1: an open blob set, exactly {@link BlobSetWriterStateSerializer}'s version 1.
 *   <li>VERSION_2: a tag byte, then the part. Tag 0: an open blob set, in version 1's layout.
 *       Tag 1: the objects exact sharing remembers: base path, the blob set names they use
 *       (count, names), then per object its size, SHA-256 (32 bytes), blob set (index into the
 *       names), kind (value), position, blob id and crc32c (unsigned 32 bits as an int).
 *   <li>VERSION_3: as VERSION_2, but tag 0 is an open blob set in {@link
 *       BlobSetWriterStateSerializer}'s version 2 layout (its open pack's entry hashes).
 *   <li>VERSION_4: as VERSION_3, but tag 0 is an open blob set in {@link
 *       BlobSetWriterStateSerializer}'s version 3 layout (its rows' source timestamps).
 * </ul>
 */
@Internal
public final class WriterStateSerializer implements SimpleVersionedSerializer<WriterState> {

    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int VERSION_3 = 3;
    public static final int VERSION_4 = 4;
    public static final int CURRENT_VERSION = VERSION_4;

    private static final byte TAG_OPEN_BLOB_SET = 0;
    private static final byte TAG_SHARED_OBJECTS = 1;

    private final BlobSetWriterStateSerializer blobSets;

    public WriterStateSerializer(BlobSetWriterStateSerializer blobSets) {
        this.blobSets = blobSets;
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(WriterState state) throws IOException {
        if (state instanceof SharedObjectsState shared) {
            return serializeShared(shared);
        }
        byte[] body = blobSets.serialize((BlobSetWriterState) state);
        byte[] tagged = new byte[body.length + 1];
        tagged[0] = TAG_OPEN_BLOB_SET;
        System.arraycopy(body, 0, tagged, 1, body.length);
        return tagged;
    }

    @Override
    public WriterState deserialize(int version, byte[] serialized) throws IOException {
        return switch (version) {
            case VERSION_1 -> blobSets.deserialize(BlobSetWriterStateSerializer.VERSION_1, serialized);
            case VERSION_2 -> readTagged(VERSION_2, BlobSetWriterStateSerializer.VERSION_1, serialized);
            case VERSION_3 -> readTagged(VERSION_3, BlobSetWriterStateSerializer.VERSION_2, serialized);
            case VERSION_4 -> readTagged(VERSION_4, BlobSetWriterStateSerializer.VERSION_3, serialized);
            default ->
                throw new IOException("unknown writer state version: expected " + VERSION_1 + " to " + VERSION_4
                        + ", found " + version);
        };
    }

    /** A tagged part; an open blob set's body is in {@code blobSetVersion}'s layout. */
    private WriterState readTagged(int version, int blobSetVersion, byte[] serialized) throws IOException {
        if (serialized.length == 0) {
            throw new IOException("writer state version " + version + " is empty: expected a tag byte");
        }
        byte tag = serialized[0];
        byte[] body = new byte[serialized.length - 1];
        System.arraycopy(serialized, 1, body, 0, body.length);
        return switch (tag) {
            case TAG_OPEN_BLOB_SET -> blobSets.deserialize(blobSetVersion, body);
            case TAG_SHARED_OBJECTS -> readShared(new DataInputDeserializer(body));
            default ->
                throw new IOException("unknown writer state part: expected tag " + TAG_OPEN_BLOB_SET + " or "
                        + TAG_SHARED_OBJECTS + ", found " + tag);
        };
    }

    private static byte[] serializeShared(SharedObjectsState state) throws IOException {
        Map<String, Integer> setIndexes = new LinkedHashMap<>();
        for (StoredObject object : state.objects()) {
            setIndexes.putIfAbsent(object.blobSet(), setIndexes.size());
        }
        DataOutputSerializer out =
                new DataOutputSerializer(64 + 64 * state.objects().size());
        out.writeByte(TAG_SHARED_OBJECTS);
        CodecV1.writeString(out, state.basePath());
        out.writeInt(setIndexes.size());
        for (String blobSet : setIndexes.keySet()) {
            CodecV1.writeString(out, blobSet);
        }
        out.writeInt(state.objects().size());
        for (StoredObject object : state.objects()) {
            ContentId id = object.id();
            out.writeLong(id.size());
            out.writeLong(id.h0());
            out.writeLong(id.h1());
            out.writeLong(id.h2());
            out.writeLong(id.h3());
            out.writeInt(setIndexes.get(object.blobSet()));
            out.writeByte(object.descriptor().kind().value());
            out.writeLong(object.descriptor().position());
            out.writeInt((int) object.descriptor().blobId());
            out.writeInt((int) object.crc32c());
        }
        return out.getCopyOfBuffer();
    }

    private static SharedObjectsState readShared(DataInputDeserializer in) throws IOException {
        String basePath = CodecV1.readString(in);
        int setCount = CodecV1.readLength(in, "blob set name list");
        List<String> names = new ArrayList<>(Math.min(setCount, 1 << 16));
        for (int i = 0; i < setCount; i++) {
            names.add(CodecV1.readString(in));
        }
        int count = CodecV1.readLength(in, "shared object list");
        List<StoredObject> objects = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            ContentId id = new ContentId(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
            int setIndex = in.readInt();
            if (setIndex < 0 || setIndex >= setCount) {
                throw new IOException("shared object " + i + " names blob set " + setIndex + " of " + setCount);
            }
            String blobSet = names.get(setIndex);
            BlobKind kind = BlobKind.fromValue(Byte.toUnsignedInt(in.readByte()));
            long position = in.readLong();
            long blobId = Integer.toUnsignedLong(in.readInt());
            long crc32c = Integer.toUnsignedLong(in.readInt());
            objects.add(
                    new StoredObject(id, blobSet, new BlobDescriptor(kind, position, id.size(), blobId, ""), crc32c));
        }
        if (in.available() != 0) {
            throw new IOException("shared objects state has " + in.available() + " trailing bytes");
        }
        return new SharedObjectsState(basePath, objects);
    }
}
