package io.blobingest.sink.internal;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer for {@link DescriptorRow} records on their way to the descriptor sink, with
 * {@link CodecV1}'s row encoding. Rows are immutable, so copies are the same instance.
 */
public final class DescriptorRowSerializer extends TypeSerializerSingleton<DescriptorRow> {

    private static final long serialVersionUID = 1L;

    public static final DescriptorRowSerializer INSTANCE = new DescriptorRowSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public DescriptorRow createInstance() {
        return null;
    }

    @Override
    public DescriptorRow copy(DescriptorRow from) {
        return from;
    }

    @Override
    public DescriptorRow copy(DescriptorRow from, DescriptorRow reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(DescriptorRow row, DataOutputView target) throws IOException {
        CodecV1.writeRow(target, row);
    }

    @Override
    public DescriptorRow deserialize(DataInputView source) throws IOException {
        return CodecV1.readRow(source);
    }

    @Override
    public DescriptorRow deserialize(DescriptorRow reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<DescriptorRow> snapshotConfiguration() {
        return new DescriptorRowSerializerSnapshot();
    }

    /** Restores {@link #INSTANCE}; public with a no-argument constructor as Flink requires. */
    public static final class DescriptorRowSerializerSnapshot extends SimpleTypeSerializerSnapshot<DescriptorRow> {
        public DescriptorRowSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
