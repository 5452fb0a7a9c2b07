package io.blobingest.lance.internal;

import io.blobingest.placement.HeaderColumn;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;
import org.lance.BasePath;
import org.lance.WriteParams;

/**
 * What the Lance output's operators need: the dataset, the blob base its references point into,
 * Lance's object store options and the typed columns filled from headers.
 *
 * @param blobBase {@code sink.raw-pack.base-path} as a URI; registered as the dataset's external blob base
 *     so that references into it are stored relative to it
 * @param columns {@code sink.lance.columns}
 */
@Internal
public record LanceSettings(
        String datasetUri, String blobBase, Map<String, String> storageOptions, List<HeaderColumn> columns)
        implements Serializable {

    /** Blob v2 needs Lance file format 2.2. */
    public static final String FILE_FORMAT = "2.2";
    /** The id of {@link #blobBase} among the dataset's bases. */
    public static final int BLOB_BASE_ID = 1;

    public static final String BLOB_BASE_NAME = "blob-ingest";

    public LanceSettings {
        storageOptions = Map.copyOf(new TreeMap<>(storageOptions));
        columns = List.copyOf(columns);
        LanceRowSchema.schema(columns);
    }

    /** What {@code datasetUri} may hold to give each input topic a dataset of its own. */
    public static final String TOPIC = "{topic}";

    /** Whether each input topic has a dataset of its own. */
    public boolean perTopic() {
        return datasetUri.contains(TOPIC);
    }

    /** The dataset of the rows read from {@code topic}. */
    public String datasetUri(String topic) {
        return datasetUri.replace(TOPIC, topic);
    }

    /** The dataset's columns: its own, then the typed ones. */
    public Schema schema() {
        return LanceRowSchema.schema(columns);
    }

    /** Names the storage options without their values, which hold credentials (the S3 secret key). */
    @Override
    public String toString() {
        return "LanceSettings[datasetUri=" + datasetUri + ", blobBase=" + blobBase + ", storageOptions="
                + storageOptions.keySet() + ", columns=" + columns + "]";
    }

    /**
     * File format 2.2, the blob base registered, Lance's default reference mode for External
     * inputs. URIs outside the base (External descriptors of {@code blob.mode=reference}) are kept
     * as absolute URIs instead of being refused.
     */
    public WriteParams writeParams() {
        return new WriteParams.Builder()
                .withDataStorageVersion(FILE_FORMAT)
                .withInitialBases(List.of(new BasePath(BLOB_BASE_ID, Optional.of(BLOB_BASE_NAME), blobBase, false)))
                .withAllowExternalBlobOutsideBases(true)
                .withStorageOptions(storageOptions)
                .build();
    }
}
