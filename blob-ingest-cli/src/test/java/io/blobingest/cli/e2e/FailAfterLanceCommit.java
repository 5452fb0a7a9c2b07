package io.blobingest.cli.e2e;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.EarlierCommittedRows;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.lance.Dataset;
import org.lance.Transaction;

/**
 * Wraps the Lance output and, beside it, fails the job once, right after the Lance committer has
 * committed a checkpoint's transaction and before the next checkpoint: the restore then hands the
 * committer that checkpoint's pending commit again, which it must recognise as committed.
 *
 * <p>Subtask 0 sees the same rows as its Lance writer: on the completion of the first checkpoint
 * whose barrier followed some of them, it waits (bounded) for the dataset's newest version to be
 * that checkpoint's transaction of this job, then throws.
 */
record FailAfterLanceCommit(DescriptorOutput lance, String runId, String datasetUri) implements DescriptorOutput {

    private static final Set<String> FIRED = ConcurrentHashMap.newKeySet();
    private static final Map<String, Long> COMMITTED_BEFORE_FAILURE = new ConcurrentHashMap<>();
    private static final Duration WAIT_FOR_COMMIT = Duration.ofSeconds(60);

    /** The checkpoint whose Lance transaction was committed just before the injected failure. */
    static Optional<Long> checkpointCommittedBeforeFailure(String runId) {
        return Optional.ofNullable(COMMITTED_BEFORE_FAILURE.get(runId));
    }

    @Override
    public void attach(DataStream<DescriptorRow> committedRows, List<EarlierCommittedRows> earlierRows) {
        lance.attach(committedRows, earlierRows);
        committedRows
                .map(new FailOnce(runId, datasetUri))
                .name("Fail once after a Lance commit")
                .uid("fail-after-lance-commit");
    }

    private static final class FailOnce extends RichMapFunction<DescriptorRow, DescriptorRow>
            implements CheckpointListener, CheckpointedFunction {

        private static final long serialVersionUID = 1L;

        private final String runId;
        private final String datasetUri;
        private transient boolean rowsSinceBarrier;
        /** The first checkpoint whose barrier followed rows; -1 before it is taken. */
        private transient long awaitedCheckpoint;

        FailOnce(String runId, String datasetUri) {
            this.runId = runId;
            this.datasetUri = datasetUri;
        }

        @Override
        public DescriptorRow map(DescriptorRow row) {
            rowsSinceBarrier = true;
            return row;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {
            awaitedCheckpoint = -1;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            if (rowsSinceBarrier && awaitedCheckpoint < 0) {
                awaitedCheckpoint = context.getCheckpointId();
            }
            rowsSinceBarrier = false;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() != 0
                    || FIRED.contains(runId)
                    || checkpointId != awaitedCheckpoint) {
                return;
            }
            String jobId = getRuntimeContext().getJobInfo().getJobId().toString();
            long deadline = System.nanoTime() + WAIT_FOR_COMMIT.toNanos();
            while (System.nanoTime() < deadline) {
                if (newestIsCommitOf(jobId, checkpointId)) {
                    FIRED.add(runId);
                    COMMITTED_BEFORE_FAILURE.put(runId, checkpointId);
                    throw new IllegalStateException(
                            "injected failure after Lance committed checkpoint " + checkpointId);
                }
                Thread.sleep(20);
            }
        }

        private boolean newestIsCommitOf(String jobId, long checkpointId) {
            try (Dataset dataset = Dataset.open(datasetUri)) {
                Optional<Transaction> transaction = dataset.readTransaction();
                if (transaction.isEmpty()) {
                    return false;
                }
                try (Transaction t = transaction.get()) {
                    Map<String, String> properties = t.transactionProperties().orElse(Map.of());
                    return jobId.equals(properties.get("blob-ingest.job-id"))
                            && Long.toString(checkpointId).equals(properties.get("blob-ingest.checkpoint-id"));
                }
            }
        }
    }
}
