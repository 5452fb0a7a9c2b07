package io.blobingest.sink.manifest;

import io.blobingest.objectlayer.BlobFeatures;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The Arrow schema of a descriptor manifest, spec.md section 5:
 *
 * <pre>
 * key               binary                                              nullable
 * source_topic      utf8
 * source_partition  int32
 * source_offset     int64
 * blob              struct&lt;kind uint8, position uint64, size uint64,
 *                          blob_id uint32, blob_uri utf8&gt;              (children non-null)
 * inline_data       large_binary                                        set iff kind = Inline
 * crc32c            uint32                                              null for External reference
 * attributes        map&lt;utf8, binary&gt;                                  (values nullable)
 * source_timestamp  timestamp[ms]                                       nullable: the input's Kafka
 *                                                                       timestamp, UTC
 * </pre>
 *
 * Schema metadata: {@code blob_set}, {@code required_features} (comma-separated, sorted, empty if
 * none) and {@code spec_version} = "1". The {@code attributes} column itself is non-null: a row
 * without passed-through headers has an empty map. Readers find columns by name and ignore those
 * they do not know; {@code source_timestamp} is absent from manifests written before it existed
 * ({@link #OPTIONAL_COLUMNS}).
 *
 * <p>A manifest with a row that shares an object of another blob set (exact sharing) has one more
 * column, last, and requires {@code blob_shared_object} ({@link #SHARED_FIELDS}):
 *
 * <pre>
 * blob_set          utf8                                                nullable: the blob set whose
 *                                                                       sidecar blob_id names, if not
 *                                                                       the manifest's own
 * </pre>
 */
@PublicEvolving
public final class DescriptorManifestSchema {

    public static final String SPEC_VERSION = "1";

    public static final String META_BLOB_SET = "blob_set";
    public static final String META_REQUIRED_FEATURES = "required_features";
    public static final String META_SPEC_VERSION = "spec_version";

    public static final String KEY = "key";
    public static final String SOURCE_TOPIC = "source_topic";
    public static final String SOURCE_PARTITION = "source_partition";
    public static final String SOURCE_OFFSET = "source_offset";
    public static final String BLOB = "blob";
    public static final String BLOB_KIND = "kind";
    public static final String BLOB_POSITION = "position";
    public static final String BLOB_SIZE = "size";
    public static final String BLOB_ID = "blob_id";
    public static final String BLOB_URI = "blob_uri";
    public static final String INLINE_DATA = "inline_data";
    public static final String CRC32C = "crc32c";
    public static final String ATTRIBUTES = "attributes";
    public static final String SOURCE_TIMESTAMP = "source_timestamp";
    public static final String ROW_BLOB_SET = "blob_set";
    /** Arrow's names for a map's entry struct and its two children. */
    public static final String MAP_ENTRIES = "entries";

    public static final String MAP_KEY = "key";
    public static final String MAP_VALUE = "value";

    static final ArrowType UINT8 = new ArrowType.Int(8, false);
    static final ArrowType UINT32 = new ArrowType.Int(32, false);
    static final ArrowType UINT64 = new ArrowType.Int(64, false);

    /** The columns, in order. Field equality is how a reader checks a file's schema. */
    public static final List<Field> FIELDS = List.of(
            nullable(KEY, ArrowType.Binary.INSTANCE),
            notNull(SOURCE_TOPIC, ArrowType.Utf8.INSTANCE),
            notNull(SOURCE_PARTITION, new ArrowType.Int(32, true)),
            notNull(SOURCE_OFFSET, new ArrowType.Int(64, true)),
            new Field(
                    BLOB,
                    FieldType.notNullable(ArrowType.Struct.INSTANCE),
                    List.of(
                            notNull(BLOB_KIND, UINT8),
                            notNull(BLOB_POSITION, UINT64),
                            notNull(BLOB_SIZE, UINT64),
                            notNull(BLOB_ID, UINT32),
                            notNull(BLOB_URI, ArrowType.Utf8.INSTANCE))),
            nullable(INLINE_DATA, ArrowType.LargeBinary.INSTANCE),
            nullable(CRC32C, UINT32),
            new Field(
                    ATTRIBUTES,
                    FieldType.notNullable(new ArrowType.Map(false)),
                    List.of(new Field(
                            MAP_ENTRIES,
                            FieldType.notNullable(ArrowType.Struct.INSTANCE),
                            List.of(
                                    notNull(MAP_KEY, ArrowType.Utf8.INSTANCE),
                                    nullable(MAP_VALUE, ArrowType.Binary.INSTANCE))))),
            nullable(SOURCE_TIMESTAMP, new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)));

    /** Columns of {@link #FIELDS} a manifest may lack: it was written before they were added. */
    public static final Set<String> OPTIONAL_COLUMNS = Set.of(SOURCE_TIMESTAMP);

    /** The columns of a manifest that requires {@code blob_shared_object}, in order. */
    public static final List<Field> SHARED_FIELDS = Stream.concat(
                    FIELDS.stream(), Stream.of(nullable(ROW_BLOB_SET, ArrowType.Utf8.INSTANCE)))
            .toList();

    private DescriptorManifestSchema() {}

    /**
     * The schema of the manifest of {@code blobSet} whose rows require {@code requiredFeatures};
     * with {@code blob_shared_object} among them, {@link #SHARED_FIELDS}.
     */
    public static Schema schema(String blobSet, Collection<String> requiredFeatures) {
        return new Schema(
                requiredFeatures.contains(BlobFeatures.BLOB_SHARED_OBJECT) ? SHARED_FIELDS : FIELDS,
                Map.of(
                        META_BLOB_SET, blobSet,
                        META_REQUIRED_FEATURES, String.join(",", new TreeSet<>(requiredFeatures)),
                        META_SPEC_VERSION, SPEC_VERSION));
    }

    private static Field nullable(String name, ArrowType type) {
        return new Field(name, FieldType.nullable(type), null);
    }

    private static Field notNull(String name, ArrowType type) {
        return new Field(name, FieldType.notNullable(type), null);
    }
}
