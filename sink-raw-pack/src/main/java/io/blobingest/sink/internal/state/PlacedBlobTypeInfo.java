package io.blobingest.sink.internal.state;

import io.blobingest.placement.PlacedBlob;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** The type of {@link PlacedBlob}: its fields' POJO type, serialized by {@link PlacedBlobSerializer}. */
@Internal
public final class PlacedBlobTypeInfo extends TypeInformation<PlacedBlob> {

    private static final long serialVersionUID = 1L;

    private final TypeInformation<PlacedBlob> fields;

    public PlacedBlobTypeInfo(TypeInformation<PlacedBlob> fields) {
        this.fields = Objects.requireNonNull(fields, "fields");
    }

    @Override
    public TypeSerializer<PlacedBlob> createSerializer(SerializerConfig config) {
        return new PlacedBlobSerializer(fields.createSerializer(config));
    }

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
        return fields.getArity();
    }

    @Override
    public int getTotalFields() {
        return fields.getTotalFields();
    }

    @Override
    public Class<PlacedBlob> getTypeClass() {
        return PlacedBlob.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public String toString() {
        return "PlacedBlob(payload once)<" + fields + ">";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PlacedBlobTypeInfo that && that.canEqual(this) && fields.equals(that.fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof PlacedBlobTypeInfo;
    }
}
