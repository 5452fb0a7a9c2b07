package io.blobingest.sink.internal.delivery;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.state.CodecV1;
import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import io.blobingest.sink.internal.writer.BlobSetLayout;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A committed blob set whose rows the emitter sent to the descriptor sink: enough to read its
 * manifest again and send the rows once more.
 *
 * @param basePath the storage root the set was committed under
 * @param rowCount rows in its manifest
 */
@Internal
public record EmittedBlobSet(String basePath, String blobSet, long rowCount) {

    public EmittedBlobSet {
        Objects.requireNonNull(basePath, "basePath");
        BlobSets.requireValidName(blobSet);
    }

    static EmittedBlobSet of(BlobSetCommittable committed) {
        return new EmittedBlobSet(committed.basePath(), committed.blobSet(), committed.rowCount());
    }

    /** Its bytes in a {@link PendingDelivery}: base path, name, row count. */
    public static final PendingDeliverySerializer.UnitCodec<EmittedBlobSet> CODEC =
            new PendingDeliverySerializer.UnitCodec<>() {
                @Override
                public void write(DataOutputView out, EmittedBlobSet set) throws IOException {
                    CodecV1.writeString(out, set.basePath());
                    CodecV1.writeString(out, set.blobSet());
                    out.writeLong(set.rowCount());
                }

                @Override
                public EmittedBlobSet read(DataInputView in) throws IOException {
                    return new EmittedBlobSet(CodecV1.readString(in), CodecV1.readString(in), in.readLong());
                }
            };

    public Path manifestPath() {
        return BlobSetLayout.manifestPath(new Path(basePath), blobSet);
    }

    /** The set's name, for messages. */
    @Override
    public String toString() {
        return blobSet;
    }
}
