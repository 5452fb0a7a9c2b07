package io.blobingest.job.internal;

import io.blobingest.kafka.BlobTypes;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ClassifiedRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.PlacedBlob;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Validates and places every input record: a {@link PlacedBlob} on the main output, or a {@link
 * DeadLetter} on {@link #DEAD_LETTERS}. Never throws for bad input, so one bad record cannot stall
 * the stream.
 *
 * <p>Dead letters are counted per code twice: as metrics ({@code deadLetters.<code>}) for
 * monitoring a running job, and as accumulators ({@link #deadLetterAccumulator}) that the job's
 * result carries back to the client when it finishes. Like every accumulator they count from the
 * last (re)start of the task only.
 */
public final class ClassifyRecords extends ProcessFunction<BlobRecord, PlacedBlob> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", BlobTypes.DEAD_LETTER);

    private static final String ACCUMULATOR_PREFIX = "dead-letters.";

    private final BlobRecordClassifier classifier;
    private transient Map<DeadLetterCode, Counter> deadLetterMetrics;
    private transient Map<DeadLetterCode, LongCounter> deadLetterAccumulators;

    public ClassifyRecords(BlobRecordClassifier classifier) {
        this.classifier = classifier;
    }

    /** The name of the accumulator counting dead letters with {@code code}. */
    public static String deadLetterAccumulator(DeadLetterCode code) {
        return ACCUMULATOR_PREFIX + code.wireName();
    }

    /** Dead letters per code from a finished job's accumulators; codes never seen are absent. */
    public static Map<DeadLetterCode, Long> deadLetterCounts(Map<String, Object> accumulators) {
        Map<DeadLetterCode, Long> counts = new EnumMap<>(DeadLetterCode.class);
        for (DeadLetterCode code : DeadLetterCode.values()) {
            Object count = accumulators.get(deadLetterAccumulator(code));
            if (count instanceof Long value && value > 0) {
                counts.put(code, value);
            }
        }
        return counts;
    }

    @Override
    public void open(OpenContext openContext) {
        MetricGroup metrics = getRuntimeContext().getMetricGroup().addGroup("deadLetters");
        deadLetterMetrics = new EnumMap<>(DeadLetterCode.class);
        deadLetterAccumulators = new EnumMap<>(DeadLetterCode.class);
        for (DeadLetterCode code : DeadLetterCode.values()) {
            deadLetterMetrics.put(code, metrics.counter(code.wireName()));
            LongCounter accumulator = new LongCounter();
            getRuntimeContext().addAccumulator(deadLetterAccumulator(code), accumulator);
            deadLetterAccumulators.put(code, accumulator);
        }
    }

    @Override
    public void processElement(BlobRecord record, Context context, Collector<PlacedBlob> out) {
        ClassifiedRecord classified = classifier.classify(record);
        if (classified instanceof PlacedBlob placed) {
            out.collect(placed);
        } else if (classified instanceof DeadLetter deadLetter) {
            deadLetterMetrics.get(deadLetter.code()).inc();
            deadLetterAccumulators.get(deadLetter.code()).add(1L);
            context.output(DEAD_LETTERS, deadLetter);
        }
    }
}
