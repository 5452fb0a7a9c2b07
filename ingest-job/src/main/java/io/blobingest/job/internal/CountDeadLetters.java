package io.blobingest.job.internal;

import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Counts every dead letter, from classification and from the fetch stage alike, on its way to the
 * dead-letter sink. Twice per code: as metrics ({@code deadLetters.<code>}) for monitoring a
 * running job, and as accumulators ({@link #accumulatorName}) that the job's result carries back to
 * the client when it finishes. Like every accumulator they count from the last (re)start of the
 * task only.
 */
@Internal
public final class CountDeadLetters extends RichMapFunction<DeadLetter, DeadLetter> {

    private static final long serialVersionUID = 1L;

    private static final String ACCUMULATOR_PREFIX = "dead-letters.";

    private transient Map<DeadLetterCode, Counter> metrics;
    private transient Map<DeadLetterCode, LongCounter> accumulators;

    /** The name of the accumulator counting dead letters with {@code code}. */
    public static String accumulatorName(DeadLetterCode code) {
        return ACCUMULATOR_PREFIX + code.wireName();
    }

    /** Dead letters per code from a finished job's accumulators; codes never seen are absent. */
    public static Map<DeadLetterCode, Long> countsByCode(Map<String, Object> jobAccumulators) {
        Map<DeadLetterCode, Long> counts = new EnumMap<>(DeadLetterCode.class);
        for (DeadLetterCode code : DeadLetterCode.values()) {
            Object count = jobAccumulators.get(accumulatorName(code));
            if (count instanceof Long value && value > 0) {
                counts.put(code, value);
            }
        }
        return counts;
    }

    @Override
    public void open(OpenContext openContext) {
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("deadLetters");
        metrics = new EnumMap<>(DeadLetterCode.class);
        accumulators = new EnumMap<>(DeadLetterCode.class);
        for (DeadLetterCode code : DeadLetterCode.values()) {
            metrics.put(code, group.counter(code.wireName()));
            LongCounter accumulator = new LongCounter();
            getRuntimeContext().addAccumulator(accumulatorName(code), accumulator);
            accumulators.put(code, accumulator);
        }
    }

    @Override
    public DeadLetter map(DeadLetter deadLetter) {
        metrics.get(deadLetter.code()).inc();
        accumulators.get(deadLetter.code()).add(1L);
        return deadLetter;
    }
}
