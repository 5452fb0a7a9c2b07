package io.blobingest.sink.internal;

import io.blobingest.objectlayer.DescriptorRow;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link DescriptorRow} streams, backed by {@link DescriptorRowSerializer}. */
public final class DescriptorRowTypeInfo extends TypeInformation<DescriptorRow> {

    private static final long serialVersionUID = 1L;

    public static final DescriptorRowTypeInfo INSTANCE = new DescriptorRowTypeInfo();

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<DescriptorRow> getTypeClass() {
        return DescriptorRow.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<DescriptorRow> createSerializer(SerializerConfig config) {
        return DescriptorRowSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "DescriptorRow";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof DescriptorRowTypeInfo;
    }

    @Override
    public int hashCode() {
        return DescriptorRowTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof DescriptorRowTypeInfo;
    }
}
