package io.blobingest.job.internal;

import io.blobingest.kafka.DescriptorRecordLimit;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.PlacedBlob;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * spec.md section 4's last check, {@code descriptor-too-large}, on every blob before the sink places
 * it: a blob whose descriptor record could exceed the descriptor producer's limit goes to {@link
 * ClassifyRecords#DEAD_LETTERS} instead. Placed, it would be committed in a blob set whose
 * descriptor then failed to send on every replay, a poison pill.
 *
 * <p>It runs after the fetch stage, not in the classifier: the code comes last in the contract's order, after
 * the fetch codes, and an ingest-mode blob's value (an Inline one's descriptor carries its bytes)
 * is known only once fetched. One stage thus sees Kafka-carried and fetched blobs alike.
 */
@Internal
public final class CheckDescriptorSize extends ProcessFunction<PlacedBlob, PlacedBlob> {

    private static final long serialVersionUID = 1L;

    private final DescriptorRecordLimit limit;

    public CheckDescriptorSize(DescriptorRecordLimit limit) {
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    @Override
    public void processElement(PlacedBlob placed, Context context, Collector<PlacedBlob> out) {
        Optional<DeadLetter> refusal = limit.refusal(placed);
        if (refusal.isPresent()) {
            context.output(ClassifyRecords.DEAD_LETTERS, refusal.get());
        } else {
            out.collect(placed);
        }
    }
}
