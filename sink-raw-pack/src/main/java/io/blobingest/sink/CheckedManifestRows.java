package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.internal.delivery.ManifestRowEmitter;
import io.blobingest.sink.manifest.ManifestRow;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Rows read from descriptor manifests on their way to a transactional descriptor sink (the
 * backfill's passed-through rows), delivered exactly once though a transaction of them may be
 * aborted after its checkpoint: the rows of an aborted epoch are read from their manifests again
 * and sent once more, as the Raw Pack sink does with its committed descriptors
 * (docs/exactly-once.md, "A descriptor transaction lost").
 */
@PublicEvolving
public final class CheckedManifestRows {

    private CheckedManifestRows() {}

    /**
     * {@code rows} as the descriptor rows to sink, their delivery checked with {@code check}. The
     * descriptor sink must be chained behind the returned stream (same parallelism, forward edge),
     * so that its transactions and the epochs kept here are cut by the same checkpoints; the
     * caller names it ({@code uid}). Delivery markers go under {@link RawPackSinkOptions#BASE_PATH};
     * {@link RawPackSinkOptions#ALLOW_OLDER_RESTORE} applies as for the Raw Pack sink.
     */
    public static SingleOutputStreamOperator<DescriptorRow> checked(
            DataStream<ManifestRow> rows,
            DescriptorDeliveryCheck check,
            ReadableConfig config,
            TypeInformation<DescriptorRow> rowType) {
        String basePath = config.getOptional(RawPackSinkOptions.BASE_PATH)
                .orElseThrow(() -> new IllegalArgumentException(
                        RawPackSinkOptions.BASE_PATH.key() + " is required: the delivery markers go there"));
        return rows.transform(
                "Send passed-through rows",
                rowType,
                new ManifestRowEmitter(
                        Objects.requireNonNull(check, "check"),
                        basePath,
                        config.get(RawPackSinkOptions.ALLOW_OLDER_RESTORE)));
    }
}
