package io.blobingest.sink.internal.state;

import io.blobingest.sink.internal.delivery.EmittedBlobSet;
import io.blobingest.sink.internal.delivery.PendingDelivery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned bytes of a {@link PendingDelivery}; they live in the operator state of whatever sends
 * rows to a checked descriptor sink. Its units are written by a {@link UnitCodec}.
 *
 * <p>VERSION_1: subtask (int), epoch (long), unit count (int), then each unit (for a blob set its
 * base path, name, as strings in {@link CodecV1}, and row count, a long: {@link
 * EmittedBlobSet#CODEC}).
 *
 * <p>VERSION_2: subtask (int), epoch (long), the time the epoch's first row was sent (long,
 * milliseconds since 1970), then the units as in VERSION_1. VERSION_1 bytes read with that time 0
 * (not known).
 */
@Internal
public final class PendingDeliverySerializer<U> implements SimpleVersionedSerializer<PendingDelivery<U>> {

    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int CURRENT_VERSION = VERSION_2;

    /** The bytes of one unit. */
    public interface UnitCodec<U> {
        void write(DataOutputView out, U unit) throws IOException;

        U read(DataInputView in) throws IOException;
    }

    private final UnitCodec<U> codec;

    public PendingDeliverySerializer(UnitCodec<U> codec) {
        this.codec = codec;
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PendingDelivery<U> delivery) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeInt(delivery.subtask());
        out.writeLong(delivery.epoch());
        out.writeLong(delivery.firstRowSentAtMillis());
        out.writeInt(delivery.units().size());
        for (U unit : delivery.units()) {
            codec.write(out, unit);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public PendingDelivery<U> deserialize(int version, byte[] serialized) throws IOException {
        return switch (version) {
            case VERSION_1 -> read(VERSION_1, new DataInputDeserializer(serialized));
            case VERSION_2 -> read(VERSION_2, new DataInputDeserializer(serialized));
            default ->
                throw new IOException("unknown pending delivery version: expected " + VERSION_1 + " to "
                        + CURRENT_VERSION + ", found " + version);
        };
    }

    private PendingDelivery<U> read(int version, DataInputDeserializer in) throws IOException {
        int subtask = in.readInt();
        long epoch = in.readLong();
        long firstRowSentAtMillis = version == VERSION_1 ? 0 : in.readLong();
        int count = CodecV1.readLength(in, "pending delivery unit list");
        List<U> units = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            units.add(codec.read(in));
        }
        if (in.available() != 0) {
            throw new IOException("pending delivery of epoch " + epoch + " has " + in.available()
                    + " trailing bytes after its version " + version + " fields");
        }
        return new PendingDelivery<>(subtask, epoch, firstRowSentAtMillis, units);
    }
}
