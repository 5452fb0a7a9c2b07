package io.blobingest.kafka.internal;

import io.blobingest.kafka.DeadLetterDeliveries;
import io.blobingest.placement.DeadLetterCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned bytes of a {@link PendingDeadLetters}, in the operator state of {@link
 * DeadLetterDeliveries}.
 *
 * <p>VERSION_1: subtask (int), epoch (long), the epoch's earliest record timestamp (long,
 * milliseconds since 1970), dead-letter count (int), then per dead letter its input topic (string),
 * partition (int), offset (long), code (its wire name, string) and detail (string); a string is its
 * UTF-8 length (int) and bytes.
 */
@Internal
public final class PendingDeadLettersSerializer implements SimpleVersionedSerializer<PendingDeadLetters> {

    static final int VERSION_1 = 1;
    static final int CURRENT_VERSION = VERSION_1;

    public static final PendingDeadLettersSerializer INSTANCE = new PendingDeadLettersSerializer();

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PendingDeadLetters pending) throws IOException {
        DataOutputSerializer out =
                new DataOutputSerializer(64 + 48 * pending.deadLetters().size());
        out.writeInt(pending.subtask());
        out.writeLong(pending.epoch());
        out.writeLong(pending.notStampedBeforeMillis());
        out.writeInt(pending.deadLetters().size());
        for (DeadLetterRef ref : pending.deadLetters()) {
            writeString(out, ref.topic());
            out.writeInt(ref.partition());
            out.writeLong(ref.offset());
            writeString(out, ref.code().wireName());
            writeString(out, ref.detail());
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public PendingDeadLetters deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException("unknown pending dead-letter version: expected " + VERSION_1 + " to "
                    + CURRENT_VERSION + ", found " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int subtask = in.readInt();
        long epoch = in.readLong();
        long notStampedBefore = in.readLong();
        int count = readLength(in, "dead-letter list");
        List<DeadLetterRef> refs = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            String topic = readString(in);
            int partition = in.readInt();
            long offset = in.readLong();
            DeadLetterCode code = code(readString(in));
            refs.add(new DeadLetterRef(topic, partition, offset, code, readString(in)));
        }
        if (in.available() != 0) {
            throw new IOException("pending dead letters of epoch " + epoch + " have " + in.available()
                    + " trailing bytes after their version " + version + " fields");
        }
        return new PendingDeadLetters(subtask, epoch, notStampedBefore, refs);
    }

    private static DeadLetterCode code(String wireName) throws IOException {
        for (DeadLetterCode code : DeadLetterCode.values()) {
            if (code.wireName().equals(wireName)) {
                return code;
            }
        }
        throw new IOException("unknown dead-letter code '" + wireName + "' in pending dead letters");
    }

    private static void writeString(DataOutputView out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputView in) throws IOException {
        byte[] bytes = new byte[readLength(in, "string")];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static int readLength(DataInputView in, String what) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("negative length " + length + " of a " + what + " in pending dead letters");
        }
        return length;
    }
}
