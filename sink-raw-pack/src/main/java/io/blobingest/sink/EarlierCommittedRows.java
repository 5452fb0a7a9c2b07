package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Descriptor rows of blob sets committed before this job, under {@code base} (spec.md section 3), such
 * as a backfill's passed-through Inline, Packed and Dedicated rows: their bytes are durable already,
 * so a {@link DescriptorOutput} takes them as they come, beside the rows of the sets the Raw Pack
 * sink commits, each once. Only for building a job: a stream is not part of the job graph's state.
 *
 * @param base the base the rows' blob sets and sidecars lie under, as {@code sink.raw-pack.base-path} names one
 */
@PublicEvolving
public record EarlierCommittedRows(DataStream<DescriptorRow> rows, String base) {

    public EarlierCommittedRows {
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(base, "base");
    }
}
