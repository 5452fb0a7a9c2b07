package io.blobingest.sink.internal.delivery;

import org.apache.flink.api.common.accumulators.Accumulator;

/**
 * A job accumulator for a level each subtask knows the current value of, such as the size of its
 * exact sharing index: {@link #add} replaces the subtask's value, since the latest is the current
 * one, while {@link #merge}, which Flink applies across the subtasks of a job, sums. The job's
 * result is thus the sum of every subtask's latest value.
 */
final class SumOfLatestValues implements Accumulator<Long, Long> {

    private static final long serialVersionUID = 1L;

    private long value;

    /** The subtask's current value, replacing any earlier one. */
    @Override
    public void add(Long latest) {
        value = latest;
    }

    @Override
    public Long getLocalValue() {
        return value;
    }

    @Override
    public void resetLocal() {
        value = 0;
    }

    /** Adds another subtask's value to this one's. */
    @Override
    public void merge(Accumulator<Long, Long> other) {
        value += other.getLocalValue();
    }

    @Override
    public SumOfLatestValues clone() {
        SumOfLatestValues copy = new SumOfLatestValues();
        copy.value = value;
        return copy;
    }

    @Override
    public String toString() {
        return "SumOfLatestValues " + value;
    }
}
