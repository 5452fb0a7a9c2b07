package io.blobingest.job.internal;

import io.blobingest.kafka.BlobTypes;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.BlobRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The backfill's fork: an External row of an old manifest re-enters the pipeline as the input
 * record that asks for it in ingest mode (main output); every other row names bytes that are
 * already committed and goes on unchanged to the descriptor topic ({@link #PASSED_THROUGH}).
 * Counts both, as accumulators the job's result carries back (from the last restart of the task).
 */
public final class SplitManifestRows extends ProcessFunction<DescriptorRow, BlobRecord> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DescriptorRow> PASSED_THROUGH =
            new OutputTag<>("passed-through", BlobTypes.DESCRIPTOR_ROW);

    static final String REENTERED_ACCUMULATOR = "backfill.re-entered";
    static final String PASSED_THROUGH_ACCUMULATOR = "backfill.passed-through";

    private transient LongCounter reentered;
    private transient LongCounter passedThrough;

    /** Rows re-entered in ingest mode, from a finished job's accumulators. */
    public static long reentered(Map<String, Object> accumulators) {
        return count(accumulators, REENTERED_ACCUMULATOR);
    }

    /** Rows passed through unchanged, from a finished job's accumulators. */
    public static long passedThrough(Map<String, Object> accumulators) {
        return count(accumulators, PASSED_THROUGH_ACCUMULATOR);
    }

    /**
     * The input record an External row stands for, in ingest mode: the row's key, an empty value,
     * its attributes as headers followed by {@code blob.uri}, {@code blob.position} and {@code
     * blob.size} (0 and 0 for a whole object), and the row's source coordinates, so that the new
     * descriptor keeps the provenance of the record that first brought the reference in.
     */
    public static BlobRecord asInputRecord(DescriptorRow row) {
        BlobDescriptor blob = row.blob();
        if (blob.kind() != BlobKind.EXTERNAL) {
            throw new IllegalArgumentException("only an External row re-enters the pipeline, found " + blob.kind()
                    + " from " + row.source());
        }
        List<Attribute> headers = new ArrayList<>(row.attributes().size() + 3);
        headers.addAll(row.attributes());
        headers.add(new Attribute(BlobHeaders.URI, BlobHeaders.utf8(blob.blobUri())));
        headers.add(new Attribute(BlobHeaders.POSITION, BlobHeaders.unsignedDecimal(blob.position())));
        headers.add(new Attribute(BlobHeaders.SIZE, BlobHeaders.unsignedDecimal(blob.size())));
        return new BlobRecord(row.key(), new byte[0], headers, row.sourceTopic(), row.sourcePartition(),
                row.sourceOffset());
    }

    @Override
    public void open(OpenContext openContext) {
        reentered = new LongCounter();
        passedThrough = new LongCounter();
        getRuntimeContext().addAccumulator(REENTERED_ACCUMULATOR, reentered);
        getRuntimeContext().addAccumulator(PASSED_THROUGH_ACCUMULATOR, passedThrough);
    }

    @Override
    public void processElement(DescriptorRow row, Context context, Collector<BlobRecord> out) {
        if (row.blob().kind() == BlobKind.EXTERNAL) {
            reentered.add(1);
            out.collect(asInputRecord(row));
        } else {
            passedThrough.add(1);
            context.output(PASSED_THROUGH, row);
        }
    }

    private static long count(Map<String, Object> accumulators, String name) {
        return Optional.ofNullable(accumulators.get(name)).map(value -> ((Number) value).longValue()).orElse(0L);
    }
}
