package io.blobingest.job.internal;

import io.blobingest.kafka.DescriptorRecordLimit;
import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.manifest.ManifestRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The backfill's fork: an External row of an old manifest re-enters the pipeline as the input
 * record that asks for it in ingest mode (main output); every other row names bytes that are
 * already committed and goes on unchanged to the descriptor topic ({@link #PASSED_THROUGH}).
 * Counts both, as accumulators the job's result carries back (from the last restart of the task).
 *
 * <p>A row to pass through whose descriptor record exceeds the descriptor producer's limit would
 * fail the job on every replay; it is dead-lettered as {@code descriptor-too-large} on {@link
 * ClassifyRecords#DEAD_LETTERS} instead, rendered as that descriptor record ({@link
 * #asDescriptorRecord}). Such rows exist: a manifest written with a larger {@code
 * max.request.size}, or before this check, when such a set was committed and only its descriptor
 * failed.
 */
@Internal
public final class SplitManifestRows extends ProcessFunction<ManifestRow, BlobRecord> {

    private static final long serialVersionUID = 1L;

    /** The Flink type of the rows the manifest source reads. */
    public static final TypeInformation<ManifestRow> MANIFEST_ROW = Types.POJO(
            ManifestRow.class, Map.of("manifest", Types.STRING, "index", Types.LONG, "row", BlobTypes.DESCRIPTOR_ROW));

    /** With where each lies, so that a row whose descriptor transaction was aborted can be read again. */
    public static final OutputTag<ManifestRow> PASSED_THROUGH = new OutputTag<>("passed-through", MANIFEST_ROW);

    static final String REENTERED_ACCUMULATOR = "backfill.re-entered";
    static final String PASSED_THROUGH_ACCUMULATOR = "backfill.passed-through";

    private final DescriptorRecordLimit limit;

    private transient LongCounter reentered;
    private transient LongCounter passedThrough;

    /** @param limit the descriptor record limit of the sink that passed-through rows go to */
    public SplitManifestRows(DescriptorRecordLimit limit) {
        this.limit = Objects.requireNonNull(limit, "limit");
    }

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
            throw new IllegalArgumentException(
                    "only an External row re-enters the pipeline, found " + blob.kind() + " from " + row.source());
        }
        List<Attribute> headers = new ArrayList<>(row.attributes().size() + 3);
        headers.addAll(row.attributes());
        headers.add(new Attribute(BlobHeaders.URI, BlobHeaders.utf8(blob.blobUri())));
        headers.add(new Attribute(BlobHeaders.POSITION, BlobHeaders.unsignedDecimal(blob.position())));
        headers.add(new Attribute(BlobHeaders.SIZE, BlobHeaders.unsignedDecimal(blob.size())));
        return new BlobRecord(
                row.key(),
                new byte[0],
                headers,
                row.sourceTopic(),
                row.sourcePartition(),
                row.sourceOffset(),
                row.sourceTimestamp());
    }

    /**
     * The descriptor record a passed-through row stands for, as an input record: the key, the value
     * ({@code inline_data}, or empty), the descriptor headers and then the attributes, as {@link
     * DescriptorRecords} writes them, and the row's source coordinates.
     */
    public static BlobRecord asDescriptorRecord(DescriptorRow row) {
        ProducerRecord<byte[], byte[]> record = DescriptorRecords.toProducerRecord("descriptors", row, null);
        List<Attribute> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new Attribute(header.key(), header.value()));
        }
        return new BlobRecord(
                record.key(),
                record.value(),
                headers,
                row.sourceTopic(),
                row.sourcePartition(),
                row.sourceOffset(),
                row.sourceTimestamp());
    }

    @Override
    public void open(OpenContext openContext) {
        reentered = new LongCounter();
        passedThrough = new LongCounter();
        getRuntimeContext().addAccumulator(REENTERED_ACCUMULATOR, reentered);
        getRuntimeContext().addAccumulator(PASSED_THROUGH_ACCUMULATOR, passedThrough);
    }

    @Override
    public void processElement(ManifestRow read, Context context, Collector<BlobRecord> out) {
        DescriptorRow row = read.row();
        if (row.blob().kind() == BlobKind.EXTERNAL) {
            reentered.add(1);
            out.collect(asInputRecord(row));
        } else if (limit.fits(row)) {
            passedThrough.add(1);
            context.output(PASSED_THROUGH, read);
        } else {
            context.output(
                    ClassifyRecords.DEAD_LETTERS,
                    new DeadLetter(
                            asDescriptorRecord(row),
                            DeadLetterCode.DESCRIPTOR_TOO_LARGE,
                            "the " + row.blob().kind().name().toLowerCase(Locale.ROOT)
                                    + " row of blob set " + row.blobSet() + " from " + row.source()
                                    + " is a descriptor record larger than the descriptor producer's "
                                    + limit.maxRecordBytes() + " bytes; it is not passed through"));
        }
    }

    private static long count(Map<String, Object> accumulators, String name) {
        return Optional.ofNullable(accumulators.get(name))
                .map(value -> ((Number) value).longValue())
                .orElse(0L);
    }
}
