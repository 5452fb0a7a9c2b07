package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackWriterState;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The field encoding VERSION_2 of the blob set writer state changes; everything else it writes
 * as {@link CodecV1} does. Frozen like that one: a later version that needs another encoding gets
 * a new codec.
 *
 * <p>An open pack's state: {@link CodecV1}'s (metadata, length, entry table), then whether the
 * pack records entry hashes (boolean) and, if it does, per entry whether its SHA-256 is known
 * (boolean) and, if so, its 32 bytes.
 */
final class CodecV2 {

    private CodecV2() {}

    static void writePackState(DataOutputView out, RawPackWriterState state) throws IOException {
        CodecV1.writePackState(out, state);
        out.writeBoolean(state.recordsEntrySha256());
        if (state.recordsEntrySha256()) {
            for (int i = 0; i < state.entryCount(); i++) {
                Optional<byte[]> sha256 = state.entrySha256(i);
                out.writeBoolean(sha256.isPresent());
                if (sha256.isPresent()) {
                    out.write(sha256.get());
                }
            }
        }
    }

    static RawPackWriterState readPackState(DataInputView in) throws IOException {
        RawPackWriterState state = CodecV1.readPackState(in);
        if (!in.readBoolean()) {
            return state;
        }
        byte[][] sha256 = new byte[state.entryCount()][];
        for (int i = 0; i < sha256.length; i++) {
            if (in.readBoolean()) {
                sha256[i] = new byte[RawPackFormat.SHA256_LENGTH];
                in.readFully(sha256[i]);
            }
        }
        return state.withEntrySha256(sha256);
    }
}
