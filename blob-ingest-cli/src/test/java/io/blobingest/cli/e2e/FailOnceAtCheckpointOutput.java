package io.blobingest.cli.e2e;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.DescriptorOutputFactory;
import io.blobingest.sink.EarlierCommittedRows;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * An in-process task failure for jobs started through the command line, which builds the real
 * topology without test hooks: a "descriptor output" found on the test classpath through {@link
 * DescriptorOutputFactory}, enabled by {@value #OPTION}{@code =<key>:<checkpoint>} (a {@code -D}
 * option). It chains an operator behind the emitter that ignores the rows and fails subtask 0's
 * first attempt once, on the notification of checkpoint {@code <checkpoint>} or a later one, so
 * that Flink fails the job over to that completed checkpoint inside the running job. Once per
 * {@code key} in this JVM (the command line's MiniCluster runs in it).
 */
public final class FailOnceAtCheckpointOutput implements DescriptorOutputFactory {

    static final String OPTION = "test.fail-once-at-checkpoint";

    private static final ConfigOption<String> FAIL_ONCE =
            ConfigOptions.key(OPTION).stringType().noDefaultValue();

    private static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    /** The {@code -D} option that fails the job once at checkpoint {@code checkpoint}, under {@code key}. */
    static String option(String key, long checkpoint) {
        return OPTION + "=" + key + ":" + checkpoint;
    }

    /** Whether the failure armed under {@code key} struck. */
    static boolean fired(String key) {
        return FIRED.contains(key);
    }

    @Override
    public String enablingOption() {
        return OPTION;
    }

    @Override
    public DescriptorOutput create(ReadableConfig config) {
        String value = config.get(FAIL_ONCE);
        int colon = value.lastIndexOf(':');
        String key = value.substring(0, colon);
        long checkpoint = Long.parseLong(value.substring(colon + 1));
        return new Output(key, checkpoint);
    }

    private record Output(String key, long checkpoint) implements DescriptorOutput {
        @Override
        public void attach(DataStream<DescriptorRow> committedRows, List<EarlierCommittedRows> earlierRows) {
            SingleOutputStreamOperator<Void> failing = committedRows
                    .transform("Fail once at checkpoint " + checkpoint, Types.VOID, new FailOnce(key, checkpoint))
                    .uid("test-fail-once-at-checkpoint");
            if (committedRows.getParallelism() > 0) {
                failing.setParallelism(committedRows.getParallelism());
            }
        }
    }

    private static final class FailOnce extends AbstractStreamOperator<Void>
            implements OneInputStreamOperator<DescriptorRow, Void> {

        private static final long serialVersionUID = 1L;

        private final String key;
        private final long checkpoint;

        FailOnce(String key, long checkpoint) {
            this.key = key;
            this.checkpoint = checkpoint;
        }

        @Override
        public void processElement(StreamRecord<DescriptorRow> element) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            if (checkpointId >= checkpoint
                    && getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0
                    && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0
                    && FIRED.add(key)) {
                throw new IllegalStateException(
                        "injected task failure on the notification of checkpoint " + checkpointId + " (" + key + ")");
            }
        }
    }
}
