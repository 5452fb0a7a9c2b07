package io.blobingest.sink.internal.state;

import io.blobingest.sink.internal.delivery.DeliveryMarkers;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned bytes of the delivery run id ({@link DeliveryMarkers#newRunId}) in the operator state
 * of whatever sends rows to a checked descriptor sink.
 *
 * <p>VERSION_1: the run id, as {@link java.io.DataOutput#writeUTF}.
 */
@Internal
public final class DeliveryRunSerializer implements SimpleVersionedSerializer<String> {

    public static final int VERSION_1 = 1;
    public static final int CURRENT_VERSION = VERSION_1;

    public static final DeliveryRunSerializer INSTANCE = new DeliveryRunSerializer();

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(String run) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(32);
        out.writeUTF(run);
        return out.getCopyOfBuffer();
    }

    @Override
    public String deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException("unknown delivery run version: expected " + VERSION_1 + " to " + CURRENT_VERSION
                    + ", found " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        String run = in.readUTF();
        if (in.available() > 0) {
            throw new IOException(
                    "delivery run " + run + " has " + in.available() + " trailing bytes after its version 1 fields");
        }
        if (!DeliveryMarkers.isRunId(run)) {
            throw new IOException("not a delivery run id: " + run);
        }
        return run;
    }
}
