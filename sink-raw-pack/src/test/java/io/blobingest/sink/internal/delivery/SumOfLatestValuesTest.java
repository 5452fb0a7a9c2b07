package io.blobingest.sink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.accumulators.AccumulatorHelper;
import org.apache.flink.util.OptionalFailure;
import org.junit.jupiter.api.Test;

class SumOfLatestValuesTest {

    private static final String NAME = "level";

    @Test
    void aSubtasksValueIsTheLatestAdded() {
        SumOfLatestValues subtask = new SumOfLatestValues();

        subtask.add(5L);
        subtask.add(9L);
        subtask.add(7L);

        assertThat(subtask.getLocalValue()).isEqualTo(7);
    }

    @Test
    void theJobsValueIsTheSumOfTheSubtasksLatestValuesMergedAsFlinkMergesThem() {
        Map<String, OptionalFailure<Accumulator<?, ?>>> job = new HashMap<>();

        AccumulatorHelper.mergeInto(job, Map.of(NAME, subtaskAt(3L, 4L)));
        AccumulatorHelper.mergeInto(job, Map.of(NAME, subtaskAt(10L)));
        AccumulatorHelper.mergeInto(job, Map.of(NAME, new SumOfLatestValues()));

        assertThat(job.get(NAME).getUnchecked().getLocalValue()).isEqualTo(14L);
    }

    @Test
    void aCloneIsIndependentOfItsOriginal() {
        SumOfLatestValues original = subtaskAt(3L);
        SumOfLatestValues copy = original.clone();

        original.add(8L);
        copy.merge(subtaskAt(1L));

        assertThat(copy.getLocalValue()).isEqualTo(4);
        assertThat(original.getLocalValue()).isEqualTo(8);
    }

    @Test
    void resetForgetsTheValue() {
        SumOfLatestValues subtask = subtaskAt(6L);

        subtask.resetLocal();

        assertThat(subtask.getLocalValue()).isZero();
    }

    private static SumOfLatestValues subtaskAt(Long... values) {
        SumOfLatestValues subtask = new SumOfLatestValues();
        for (Long value : values) {
            subtask.add(value);
        }
        return subtask;
    }
}
