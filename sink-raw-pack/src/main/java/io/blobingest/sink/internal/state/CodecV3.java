package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The field encoding VERSION_3 of the blob set writer state changes; everything else it writes as
 * {@link CodecV2} and {@link CodecV1} do. Frozen like those: a later version that needs another
 * encoding gets a new codec.
 *
 * <p>A row: {@link CodecV1}'s fields, then whether it has a source timestamp (boolean) and, if it
 * does, the timestamp (long, milliseconds since the epoch).
 */
final class CodecV3 {

    private CodecV3() {}

    static void writeRow(DataOutputView out, DescriptorRow row) throws IOException {
        CodecV1.writeRow(out, row);
        out.writeBoolean(row.sourceTimestamp() != null);
        if (row.sourceTimestamp() != null) {
            out.writeLong(row.sourceTimestamp());
        }
    }

    static DescriptorRow readRow(DataInputView in) throws IOException {
        DescriptorRow row = CodecV1.readRow(in);
        if (!in.readBoolean()) {
            return row;
        }
        return new DescriptorRow(
                row.key(),
                row.sourceTopic(),
                row.sourcePartition(),
                row.sourceOffset(),
                in.readLong(),
                row.blob(),
                row.blobSet(),
                row.inlineData(),
                row.crc32c(),
                row.attributes());
    }
}
