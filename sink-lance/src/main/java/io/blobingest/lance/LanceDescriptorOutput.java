package io.blobingest.lance;

import io.blobingest.lance.internal.LanceCommitter;
import io.blobingest.lance.internal.LanceFragmentWriter;
import io.blobingest.lance.internal.LanceRowSchema;
import io.blobingest.lance.internal.LanceSettings;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.HeaderColumn;
import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.EarlierCommittedRows;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.storage.S3Options;
import io.blobingest.storage.SecretSettings;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The Lance dataset output: every committed descriptor becomes one row of a Lance dataset
 * ({@code LanceRowSchema}) whose Blob v2 column references our committed bytes in place, so that
 * Lance's own {@code takeBlobs} reads them; with {@code {topic}} in the dataset URI, each input
 * topic's rows form a dataset of their own. Exactly once: each checkpoint's rows are one Lance
 * transaction per dataset carrying the job and checkpoint id, committed by a single committer that
 * recognises what it has already committed after a failure. See {@code docs/lance.md}.
 *
 * <pre>{@code
 * RawPackSink.builder()...addDescriptorOutput(LanceDescriptorOutput.fromConfig(config)).build();
 * }</pre>
 */
@PublicEvolving
public final class LanceDescriptorOutput implements DescriptorOutput {

    private static final long serialVersionUID = 1L;

    public static final String WRITER_UID = "lance-fragment-writer";
    public static final String COMMITTER_UID = "lance-committer";
    public static final String EARLIER_ROWS_WRITER_UID = "lance-fragment-writer-earlier-rows";

    private final LanceSettings settings;

    private LanceDescriptorOutput(LanceSettings settings) {
        this.settings = settings;
    }

    /**
     * From {@link LanceOutputOptions} and {@link RawPackSinkOptions#BASE_PATH}; Lance's S3 options
     * are derived from the {@code s3.*} options when the dataset or the base is on s3://.
     */
    public static LanceDescriptorOutput fromConfig(ReadableConfig config) {
        String datasetUri = config.getOptional(LanceOutputOptions.DATASET_URI)
                .filter(uri -> !uri.isBlank())
                .orElseThrow(() -> new IllegalArgumentException(LanceOutputOptions.DATASET_URI.key() + " is required"));
        String base = config.get(RawPackSinkOptions.BASE_PATH);
        if (base == null || base.isBlank()) {
            throw new IllegalArgumentException(
                    LanceOutputOptions.DATASET_URI.key() + " needs " + RawPackSinkOptions.BASE_PATH.key());
        }
        String blobBase = absoluteUri(base);
        Map<String, String> storageOptions = new HashMap<>();
        if (datasetUri.startsWith("s3://") || blobBase.startsWith("s3://")) {
            storageOptions.putAll(s3StorageOptions(config));
        }
        SecretSettings.requireMaskable(config, LanceOutputOptions.STORAGE_OPTIONS);
        storageOptions.putAll(config.get(LanceOutputOptions.STORAGE_OPTIONS));
        List<HeaderColumn> columns;
        try {
            columns = HeaderColumn.parseAll(config.get(LanceOutputOptions.COLUMNS));
            LanceRowSchema.schema(columns);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LanceOutputOptions.COLUMNS.key() + ": " + e.getMessage(), e);
        }
        return new LanceDescriptorOutput(new LanceSettings(datasetUri, blobBase, storageOptions, columns));
    }

    /**
     * One fragment writer per stream, each resolving its rows' sidecars against their own base (a
     * backfill's passed-through rows name packs of the old base, referenced there as absolute URIs),
     * and one committer for all: a checkpoint's fragments of every writer are one transaction.
     */
    @Override
    public void attach(DataStream<DescriptorRow> committedRows, List<EarlierCommittedRows> earlierRows) {
        DataStream<byte[]> fragments =
                writeFragments(committedRows, settings.blobBase(), "Lance fragment writer", WRITER_UID);
        for (int i = 0; i < earlierRows.size(); i++) {
            EarlierCommittedRows earlier = earlierRows.get(i);
            fragments = fragments.union(writeFragments(
                    earlier.rows(),
                    absoluteUri(earlier.base()),
                    "Lance fragment writer of earlier committed rows",
                    EARLIER_ROWS_WRITER_UID + (i == 0 ? "" : "-" + i)));
        }
        fragments
                .transform("Lance committer", Types.VOID, new LanceCommitter(settings))
                .uid(COMMITTER_UID)
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    private SingleOutputStreamOperator<byte[]> writeFragments(
            DataStream<DescriptorRow> rows, String rowsBase, String name, String uid) {
        SingleOutputStreamOperator<byte[]> fragments = rows.transform(
                        name,
                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                        new LanceFragmentWriter(settings, rowsBase))
                .uid(uid);
        if (rows.getParallelism() > 0) {
            fragments.setParallelism(rows.getParallelism());
        }
        return fragments;
    }

    /** A local path as a {@code file:///} URI, the form Lance compares against its bases. */
    private static String absoluteUri(String base) {
        URI uri = new Path(base).toUri();
        return uri.getScheme() == null ? "file://" + uri.getPath() : uri.toString();
    }

    /** Lance's object store (the Rust object_store crate) names S3 settings its own way. */
    private static Map<String, String> s3StorageOptions(ReadableConfig config) {
        Map<String, String> options = new HashMap<>();
        config.getOptional(S3Options.ENDPOINT).ifPresent(endpoint -> {
            options.put("aws_endpoint", endpoint);
            if (endpoint.startsWith("http://")) {
                options.put("allow_http", "true");
            }
        });
        config.getOptional(S3Options.ACCESS_KEY).ifPresent(key -> options.put("aws_access_key_id", key));
        config.getOptional(S3Options.SECRET_KEY).ifPresent(key -> options.put("aws_secret_access_key", key));
        if (config.getOptional(S3Options.PATH_STYLE_ACCESS).orElse(false)) {
            options.put("aws_virtual_hosted_style_request", "false");
        }
        return options;
    }
}
