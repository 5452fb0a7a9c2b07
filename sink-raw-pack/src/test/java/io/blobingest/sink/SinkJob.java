package io.blobingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.PlacedBlob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFilterFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * Runs the sink on the MiniCluster: {@link TestBlobs} {@code 0..blobs-1} from a rate-limited
 * generator, through a {@link RawPackSink}, into a {@link TransactionalRowSink}; optionally with
 * one injected failure.
 *
 * <p>{@link #run()} adds a second, endless generator that keeps the job running after the last
 * blob, because Flink 2.2 cannot deliver post-commit output of a job's final checkpoint
 * (FLINK-38614, see {@code docs/exactly-once.md}). It waits until the descriptor sink has
 * committed every blob and then a few more checkpoints have completed (a late duplicate would
 * have surfaced by then), and cancels the job. {@link #runToEndOfInput()} lets bounded input
 * finish the job instead.
 */
final class SinkJob {

    /** The MiniCluster the sink's ITCases run their jobs on: one TaskManager, four slots. */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(4)
                .build());
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final ConcurrentMap<String, AtomicLong> COMPLETED_CHECKPOINTS = new ConcurrentHashMap<>();
    private static final ConcurrentMap<String, AtomicLong> FILTERS_OPENED = new ConcurrentHashMap<>();
    private static final int PARALLELISM = 2;

    final String runId = UUID.randomUUID().toString();
    private final Path base;
    private final RollPolicy policy;
    private final int blobs;
    private final Failures.Point failure;
    private final double blobsPerSecond;

    /** A run whose input arrives over about three seconds. */
    SinkJob(Path base, RollPolicy policy, int blobs, Failures.Point failure) {
        this(base, policy, blobs, failure, Duration.ofSeconds(3));
    }

    SinkJob(Path base, RollPolicy policy, int blobs, Failures.Point failure, Duration inputDuration) {
        this.base = base;
        this.policy = policy;
        this.blobs = blobs;
        this.failure = failure;
        this.blobsPerSecond = blobs * 1000.0 / inputDuration.toMillis();
        COMPLETED_CHECKPOINTS.put(runId, new AtomicLong());
        FILTERS_OPENED.put(runId, new AtomicLong());
        if (failure != null) {
            Failures.arm(runId, failure);
        }
    }

    /** Runs until every blob is committed downstream, then cancels. */
    void run() throws Exception {
        runToCompletion(unboundedJob(new Configuration()));
    }

    /**
     * Stops the job with a savepoint once a tenth of the blobs are committed downstream, as an
     * operator would before an upgrade, then resumes a new job from that savepoint and runs it
     * until every blob is committed downstream. Give it an input duration well above the few
     * checkpoints a stop takes, so that input is left for the resumed job.
     */
    void runStoppedWithSavepointThenResumed(Path savepoints) throws Exception {
        JobClient first = unboundedJob(new Configuration());
        String savepoint;
        try {
            awaitWhileRunning(
                    first,
                    "a tenth of the blobs committed downstream",
                    () -> TransactionalRowSink.committedRowCount(runId),
                    blobs / 10);
        } catch (AssertionError | Exception e) {
            first.cancel().get();
            throw e;
        }
        savepoint = first.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
        awaitTerminal(first);
        assertThat(TransactionalRowSink.committedRowCount(runId))
                .as("rows committed before the stop")
                .isLessThan(blobs);

        Configuration resume = new Configuration();
        resume.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        runToCompletion(unboundedJob(resume));
    }

    private JobClient unboundedJob(Configuration config) throws Exception {
        StreamExecutionEnvironment env = environment(config);
        DataStream<Long> keepAlive = env.fromSource(
                        new DataGeneratorSource<>(
                                i -> -1L, Long.MAX_VALUE, RateLimiterStrategy.perSecond(4), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "keep-alive")
                .uid("keep-alive");
        build(indexes(env).union(keepAlive));
        return env.executeAsync("raw-pack-sink " + policy + " " + failure);
    }

    private void runToCompletion(JobClient job) throws Exception {
        try {
            awaitWhileRunning(
                    job, "every blob committed downstream", () -> TransactionalRowSink.committedRowCount(runId), blobs);
            long checkpoints = COMPLETED_CHECKPOINTS.get(runId).get();
            awaitWhileRunning(
                    job,
                    "four more completed checkpoint notifications",
                    () -> COMPLETED_CHECKPOINTS.get(runId).get(),
                    checkpoints + 4);
        } finally {
            job.cancel().get();
            awaitTerminal(job);
        }
    }

    /** Runs with bounded input until the job finishes by itself, through its final checkpoint. */
    void runToEndOfInput() throws Exception {
        StreamExecutionEnvironment env = environment(new Configuration());
        build(indexes(env));
        env.execute("raw-pack-sink bounded " + policy);
    }

    private StreamExecutionEnvironment environment(Configuration config) {
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(200, CheckpointingMode.EXACTLY_ONCE);
        return env;
    }

    private DataStream<Long> indexes(StreamExecutionEnvironment env) {
        return env.fromSource(
                        new DataGeneratorSource<>(
                                i -> i, blobs, RateLimiterStrategy.perSecond(blobsPerSecond), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "blob indexes")
                .uid("blob-indexes");
    }

    private void build(DataStream<Long> indexes) {
        DataStream<PlacedBlob> placed = indexes.filter(new RealBlobs(runId))
                .uid("real-blobs")
                .map(new ToPlacedBlob(runId, failure == Failures.Point.MID_PACK_WRITE ? blobs / 6 : Long.MAX_VALUE))
                .uid("to-placed-blob");

        RawPackSink rawPackSink = RawPackSink.builder()
                .setBasePath(base.toUri().toString())
                .setPackTargetSize(MemorySize.ofMebiBytes(6))
                .setRollPolicy(policy)
                .setRollInterval(Duration.ofSeconds(1))
                .setCreatedBy("sink-it")
                .setDescriptorSink(new TransactionalRowSink(runId, blobs / 3))
                .build();
        Sink<PlacedBlob> sink =
                failure == Failures.Point.IN_COMMITTER ? new FailOnceCommitSink(rawPackSink, runId) : rawPackSink;
        placed.sinkTo(sink).uid("raw-pack-sink").name("raw-pack-sink");
    }

    /** The exactly-once checks shared by every run. */
    void assertEveryBlobExactlyOnceAndByteExact() throws Exception {
        if (failure != null) {
            assertThat(Failures.fired(runId, failure))
                    .as("the injected failure " + failure + " struck")
                    .isTrue();
            assertThat(FILTERS_OPENED.get(runId).get())
                    .as("tasks started, restarts included")
                    .isGreaterThan(PARALLELISM);
        }
        List<DescriptorRow> manifestRows = assertEveryBlobCommittedOnceAndByteExact();
        List<DescriptorRow> delivered = TransactionalRowSink.committedRows(runId);
        assertThat(delivered)
                .extracting(DescriptorRow::sourceOffset)
                .as("offsets committed by the descriptor sink")
                .doesNotHaveDuplicates()
                .hasSize(blobs);
        assertDeliveredRowsAreTheCommittedOnes(delivered, manifestRows);
    }

    private List<DescriptorRow> assertEveryBlobCommittedOnceAndByteExact() throws Exception {
        StoredBlobs stored = new StoredBlobs(base);
        Map<String, List<DescriptorRow>> manifests = stored.committedManifests();
        List<DescriptorRow> manifestRows =
                manifests.values().stream().flatMap(List::stream).toList();
        assertThat(manifestRows)
                .extracting(DescriptorRow::sourceOffset)
                .as("offsets in committed manifests")
                .doesNotHaveDuplicates()
                .hasSize(blobs)
                .allMatch(offset -> offset >= 0 && offset < blobs);

        for (Map.Entry<String, List<DescriptorRow>> set : manifests.entrySet()) {
            stored.verifyPacks(set.getKey(), set.getValue());
        }
        for (DescriptorRow row : manifestRows) {
            TestBlobs.assertDescribesItsBlob(row, stored);
        }
        stored.assertOnlyCommittedFilesAreVisible(manifests);
        return manifestRows;
    }

    private static void assertDeliveredRowsAreTheCommittedOnes(
            List<DescriptorRow> delivered, List<DescriptorRow> committed) {
        assertThat(delivered).hasSameSizeAs(committed);
        Map<Long, DescriptorRow> byOffset =
                committed.stream().collect(Collectors.toMap(DescriptorRow::sourceOffset, row -> row));
        for (DescriptorRow row : delivered) {
            assertThat(byOffset)
                    .as("delivered row " + row.source() + " is in a committed manifest")
                    .containsKey(row.sourceOffset());
            DescriptorRows.assertSameRow(row, byOffset.get(row.sourceOffset()));
        }
    }

    private static void awaitWhileRunning(JobClient job, String what, LongSupplier value, long target)
            throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (value.getAsLong() < target) {
            JobStatus status = job.getJobStatus().get();
            if (status.isGloballyTerminalState()) {
                job.getJobExecutionResult().get();
                throw new AssertionError("job ended " + status + " while waiting for " + what);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what + ": "
                        + value.getAsLong() + " of " + target);
            }
            Thread.sleep(50);
        }
    }

    private static void awaitTerminal(JobClient job) throws Exception {
        while (!job.getJobStatus().get().isGloballyTerminalState()) {
            Thread.sleep(20);
        }
    }

    /** Drops the keep-alive ticks; counts its starts and the completed checkpoints of the run. */
    private static final class RealBlobs extends RichFilterFunction<Long> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final String runId;

        RealBlobs(String runId) {
            this.runId = runId;
        }

        @Override
        public void open(OpenContext context) {
            FILTERS_OPENED.get(runId).incrementAndGet();
        }

        @Override
        public boolean filter(Long index) {
            return index >= 0;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            COMPLETED_CHECKPOINTS.get(runId).incrementAndGet();
        }
    }

    /** Turns an index into its blob; throws once mid-stream for {@link Failures.Point#MID_PACK_WRITE}. */
    private static final class ToPlacedBlob implements MapFunction<Long, PlacedBlob> {
        private static final long serialVersionUID = 1L;
        private final String runId;
        private final long failAfter;
        private long seen;

        ToPlacedBlob(String runId, long failAfter) {
            this.runId = runId;
            this.failAfter = failAfter;
        }

        @Override
        public PlacedBlob map(Long index) {
            if (++seen >= failAfter && Failures.fireOnce(runId, Failures.Point.MID_PACK_WRITE)) {
                throw Failures.injected(Failures.Point.MID_PACK_WRITE, "before blob " + index);
            }
            return TestBlobs.placed(index);
        }
    }
}
