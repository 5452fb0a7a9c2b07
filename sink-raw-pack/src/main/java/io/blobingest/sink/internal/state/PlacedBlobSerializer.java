package io.blobingest.sink.internal.state;

import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.PlacedBlob;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes a {@link PlacedBlob} with its payload once.
 *
 * <p>Why: a blob whose bytes travel with it holds them twice over, as {@link PlacedBlob#bytes()}
 * and as its input record's value, one array under two names. Flink's POJO serializer writes every
 * field, so a blob crossing a network edge (the content routing of {@code within-job} exact
 * sharing) sent its payload twice and was copied twice on either side. This serializer writes one
 * flag, then the blob with the value left out of its record when it is the very array of the
 * bytes, and restores that sharing when it reads: the same object graph, half the bytes.
 *
 * <p>Layout: {@code boolean valueIsBytes}, then the blob through {@code fields}, the POJO
 * serializer of {@link PlacedBlob}'s fields (with the record's value null if {@code valueIsBytes}).
 */
@Internal
public final class PlacedBlobSerializer extends TypeSerializer<PlacedBlob> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<PlacedBlob> fields;

    public PlacedBlobSerializer(TypeSerializer<PlacedBlob> fields) {
        this.fields = Objects.requireNonNull(fields, "fields");
    }

    @Override
    public void serialize(PlacedBlob blob, DataOutputView target) throws IOException {
        boolean valueIsBytes = valueIsBytes(blob);
        target.writeBoolean(valueIsBytes);
        fields.serialize(valueIsBytes ? withRecordValue(blob, null) : blob, target);
    }

    @Override
    public PlacedBlob deserialize(DataInputView source) throws IOException {
        boolean valueIsBytes = source.readBoolean();
        PlacedBlob blob = fields.deserialize(source);
        return valueIsBytes ? withRecordValue(blob, blob.bytes()) : blob;
    }

    @Override
    public PlacedBlob deserialize(PlacedBlob reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        target.writeBoolean(source.readBoolean());
        fields.copy(source, target);
    }

    @Override
    public PlacedBlob copy(PlacedBlob from) {
        if (!valueIsBytes(from)) {
            return fields.copy(from);
        }
        PlacedBlob copy = fields.copy(withRecordValue(from, null));
        return withRecordValue(copy, copy.bytes());
    }

    @Override
    public PlacedBlob copy(PlacedBlob from, PlacedBlob reuse) {
        return copy(from);
    }

    private static boolean valueIsBytes(PlacedBlob blob) {
        return blob.bytes() != null && blob.record().value() == blob.bytes();
    }

    private static PlacedBlob withRecordValue(PlacedBlob blob, byte[] value) {
        BlobRecord record = blob.record();
        BlobRecord withValue = new BlobRecord(
                record.key(),
                value,
                record.headers(),
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp());
        return new PlacedBlob(
                withValue, blob.placement(), blob.bytes(), blob.attributes(), blob.external(), blob.source());
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<PlacedBlob> duplicate() {
        TypeSerializer<PlacedBlob> duplicate = fields.duplicate();
        return duplicate == fields ? this : new PlacedBlobSerializer(duplicate);
    }

    @Override
    public PlacedBlob createInstance() {
        return fields.createInstance();
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PlacedBlobSerializer that && fields.equals(that.fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<PlacedBlob> snapshotConfiguration() {
        return new Snapshot(this);
    }

    /** The snapshot of a {@link PlacedBlobSerializer}: that of its fields' serializer. */
    public static final class Snapshot extends CompositeTypeSerializerSnapshot<PlacedBlob, PlacedBlobSerializer> {

        private static final int VERSION_1 = 1;
        private static final int CURRENT_VERSION = VERSION_1;

        /** For reading a snapshot back. */
        public Snapshot() {}

        Snapshot(PlacedBlobSerializer serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return CURRENT_VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(PlacedBlobSerializer outer) {
            return new TypeSerializer<?>[] {outer.fields};
        }

        @Override
        @SuppressWarnings("unchecked")
        protected PlacedBlobSerializer createOuterSerializerWithNestedSerializers(TypeSerializer<?>[] nested) {
            return new PlacedBlobSerializer((TypeSerializer<PlacedBlob>) nested[0]);
        }
    }
}
