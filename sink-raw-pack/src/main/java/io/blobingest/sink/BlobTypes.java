package io.blobingest.sink;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.internal.state.PlacedBlobSerializer;
import io.blobingest.sink.internal.state.PlacedBlobTypeInfo;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Flink types of the records that travel between operators. They are declared field by field as
 * POJO types (Flink serializes Java records as POJOs, with schema evolution), because left to type
 * extraction the {@code List} fields would fall back to Kryo, which cannot rebuild immutable lists.
 */
@PublicEvolving
public final class BlobTypes {

    private static final TypeInformation<?> BYTES = Types.PRIMITIVE_ARRAY(Types.BYTE);

    public static final TypeInformation<Attribute> ATTRIBUTE =
            Types.POJO(Attribute.class, Map.of("name", Types.STRING, "value", BYTES));

    private static final TypeInformation<List<Attribute>> ATTRIBUTES = Types.LIST(ATTRIBUTE);

    public static final TypeInformation<BlobRecord> BLOB_RECORD = Types.POJO(
            BlobRecord.class,
            Map.of(
                    "key",
                    BYTES,
                    "value",
                    BYTES,
                    "headers",
                    ATTRIBUTES,
                    "topic",
                    Types.STRING,
                    "partition",
                    Types.INT,
                    "offset",
                    Types.LONG,
                    "timestamp",
                    Types.LONG));

    public static final TypeInformation<BlobDescriptor> BLOB_DESCRIPTOR = Types.POJO(
            BlobDescriptor.class,
            Map.of(
                    "kind", Types.ENUM(BlobKind.class),
                    "position", Types.LONG,
                    "size", Types.LONG,
                    "blobId", Types.LONG,
                    "blobUri", Types.STRING));

    public static final TypeInformation<ExternalBytes> EXTERNAL_BYTES = Types.POJO(
            ExternalBytes.class,
            Map.of(
                    "location", Types.STRING,
                    "offset", Types.LONG,
                    "length", Types.LONG));

    /**
     * {@link PlacedBlob}'s fields as a POJO, its payload written twice when it is also the record's
     * value. How the job serialized it before {@link #PLACED_BLOB}, and how state written then
     * holds it: read old state with this type, never write it.
     */
    public static final TypeInformation<PlacedBlob> PLACED_BLOB_FIELDS = Types.POJO(
            PlacedBlob.class,
            Map.of(
                    "record", BLOB_RECORD,
                    "placement", Types.ENUM(Placement.class),
                    "bytes", BYTES,
                    "attributes", ATTRIBUTES,
                    "external", BLOB_DESCRIPTOR,
                    "source", EXTERNAL_BYTES));

    /**
     * Its fields as a POJO, its payload written once ({@link PlacedBlobSerializer}): a blob's bytes
     * are also its record's value.
     */
    public static final TypeInformation<PlacedBlob> PLACED_BLOB = new PlacedBlobTypeInfo(PLACED_BLOB_FIELDS);

    /** Kept in the fetch stage's checkpointed state while the fetch is in flight. */
    public static final TypeInformation<ExternalFetch> EXTERNAL_FETCH = Types.POJO(
            ExternalFetch.class,
            Map.of(
                    "record", BLOB_RECORD,
                    "location", Types.STRING,
                    "position", Types.LONG,
                    "size", Types.LONG,
                    "attributes", ATTRIBUTES));

    public static final TypeInformation<DeadLetter> DEAD_LETTER = Types.POJO(
            DeadLetter.class,
            Map.of("record", BLOB_RECORD, "code", Types.ENUM(DeadLetterCode.class), "detail", Types.STRING));

    public static final TypeInformation<DescriptorRow> DESCRIPTOR_ROW = Types.POJO(
            DescriptorRow.class,
            Map.of(
                    "key", BYTES,
                    "sourceTopic", Types.STRING,
                    "sourcePartition", Types.INT,
                    "sourceOffset", Types.LONG,
                    "sourceTimestamp", Types.LONG,
                    "blob", BLOB_DESCRIPTOR,
                    "blobSet", Types.STRING,
                    "inlineData", BYTES,
                    "crc32c", Types.LONG,
                    "attributes", ATTRIBUTES));

    private BlobTypes() {}
}
