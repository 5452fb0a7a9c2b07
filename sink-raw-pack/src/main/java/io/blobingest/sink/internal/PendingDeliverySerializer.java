package io.blobingest.sink.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned bytes of a {@link PendingDelivery}; they live in the descriptor emitter's operator
 * state.
 *
 * <p>VERSION_1: subtask (int), epoch (long), set count (int), then per set its base path, name
 * (strings as in {@link CodecV1}) and row count (long).
 *
 * <p>VERSION_2: subtask (int), epoch (long), the time the epoch's first row was sent (long,
 * milliseconds since 1970), then the sets as in VERSION_1. VERSION_1 bytes read with that time 0
 * (not known).
 */
public final class PendingDeliverySerializer implements SimpleVersionedSerializer<PendingDelivery> {

    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int CURRENT_VERSION = VERSION_2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PendingDelivery delivery) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeInt(delivery.subtask());
        out.writeLong(delivery.epoch());
        out.writeLong(delivery.firstRowSentAtMillis());
        out.writeInt(delivery.sets().size());
        for (EmittedBlobSet set : delivery.sets()) {
            CodecV1.writeString(out, set.basePath());
            CodecV1.writeString(out, set.blobSet());
            out.writeLong(set.rowCount());
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public PendingDelivery deserialize(int version, byte[] serialized) throws IOException {
        return switch (version) {
            case VERSION_1 -> read(VERSION_1, new DataInputDeserializer(serialized));
            case VERSION_2 -> read(VERSION_2, new DataInputDeserializer(serialized));
            default ->
                throw new IOException("unknown pending delivery version: expected " + VERSION_1 + " to "
                        + CURRENT_VERSION + ", found " + version);
        };
    }

    private static PendingDelivery read(int version, DataInputDeserializer in) throws IOException {
        int subtask = in.readInt();
        long epoch = in.readLong();
        long firstRowSentAtMillis = version == VERSION_1 ? 0 : in.readLong();
        int count = CodecV1.readLength(in, "pending delivery set list");
        List<EmittedBlobSet> sets = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            sets.add(new EmittedBlobSet(CodecV1.readString(in), CodecV1.readString(in), in.readLong()));
        }
        if (in.available() != 0) {
            throw new IOException("pending delivery of epoch " + epoch + " has " + in.available()
                    + " trailing bytes after its version " + version + " fields");
        }
        return new PendingDelivery(subtask, epoch, firstRowSentAtMillis, sets);
    }
}
