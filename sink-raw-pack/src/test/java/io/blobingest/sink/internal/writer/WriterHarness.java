package io.blobingest.sink.internal.writer;

import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.TestBlobs;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.committer.BlobSetCommitter;
import io.blobingest.sink.internal.state.BlobSetWriterStateSerializer;
import io.blobingest.sink.internal.state.WriterState;
import io.blobingest.sink.internal.state.WriterStateSerializer;
import io.blobingest.storage.RetryPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/** Runs {@link RawPackSinkWriter} and {@link BlobSetCommitter} outside Flink, on the local file system. */
public final class WriterHarness {

    public static final Duration ROLL_INTERVAL = Duration.ofSeconds(60);
    /** Three tries without waiting: tests inject failures, they need no real backoff. */
    public static final RetryPolicy EXTERNAL_READ_RETRIES = new RetryPolicy(3, Duration.ZERO);

    /** Bounds of a Dedicated copy: generous for a loaded machine, short enough for a test to wait out. */
    public static final Duration COPY_TIMEOUT = Duration.ofSeconds(20);

    public static final Duration COPY_STALL_TIMEOUT = Duration.ofSeconds(3);

    /** Dedicated copies may read any file under the JVM's temporary directory: the tests' {@code @TempDir}s. */
    public static final List<String> EXTERNAL_ALLOWED_PREFIXES =
            List.of(Path.of(System.getProperty("java.io.tmpdir")).toUri().toString());

    public final Path base;
    public final SinkSettings settings;
    public final RecoverableWriter fs;
    public final ManualClock clock = new ManualClock();

    public WriterHarness(Path base, RollPolicy policy, long packTargetSize) throws IOException {
        this(base, policy, packTargetSize, false, COPY_TIMEOUT);
    }

    public WriterHarness(Path base, RollPolicy policy, long packTargetSize, boolean allowOlderRestore)
            throws IOException {
        this(base, policy, packTargetSize, allowOlderRestore, COPY_TIMEOUT);
    }

    public WriterHarness(Path base, RollPolicy policy, long packTargetSize, Duration copyTimeout) throws IOException {
        this(base, policy, packTargetSize, false, copyTimeout);
    }

    /** A writer with exact sharing, remembering at most {@code indexSize} objects. */
    public WriterHarness(Path base, RollPolicy policy, long packTargetSize, ExactSharing sharing, int indexSize)
            throws IOException {
        this(base, policy, packTargetSize, false, COPY_TIMEOUT, sharing, indexSize);
    }

    private WriterHarness(
            Path base, RollPolicy policy, long packTargetSize, boolean allowOlderRestore, Duration copyTimeout)
            throws IOException {
        this(base, policy, packTargetSize, allowOlderRestore, copyTimeout, ExactSharing.OFF, 1000);
    }

    private WriterHarness(
            Path base,
            RollPolicy policy,
            long packTargetSize,
            boolean allowOlderRestore,
            Duration copyTimeout,
            ExactSharing sharing,
            int indexSize)
            throws IOException {
        this.base = base;
        this.settings = new SinkSettings(
                base.toUri().toString(),
                packTargetSize,
                policy,
                ROLL_INTERVAL,
                "writer-test",
                EXTERNAL_READ_RETRIES,
                allowOlderRestore,
                copyTimeout,
                COPY_STALL_TIMEOUT,
                sharing,
                indexSize,
                EXTERNAL_ALLOWED_PREFIXES);
        this.fs = FileSystem.getLocalFileSystem().createRecoverableWriter();
    }

    public RawPackSinkWriter writer() throws IOException {
        return restore(List.of());
    }

    public RawPackSinkWriter restore(Collection<? extends WriterState> states) throws IOException {
        return restore(states, UnregisteredMetricsGroup.createSinkWriterMetricGroup());
    }

    public RawPackSinkWriter restore(Collection<? extends WriterState> states, SinkWriterMetricGroup metrics)
            throws IOException {
        return new RawPackSinkWriter(settings, fs, 0, clock, metrics, List.copyOf(states));
    }

    public WriterStateSerializer stateSerializer() {
        return new WriterStateSerializer(new BlobSetWriterStateSerializer(
                fs.getCommitRecoverableSerializer(), fs.getResumeRecoverableSerializer()));
    }

    public static void write(RawPackSinkWriter writer, long... indexes) throws IOException {
        for (long i : indexes) {
            writer.write(TestBlobs.placed(i), null);
        }
    }

    public static void commit(Collection<BlobSetCommittable> committables) throws IOException {
        commit(committables, UnregisteredMetricsGroup.createOperatorMetricGroup());
    }

    /** Commits with a committer whose metrics go to {@code metrics}; its pack target size is 1 MiB. */
    public static void commit(Collection<BlobSetCommittable> committables, MetricGroup metrics) throws IOException {
        List<Committer.CommitRequest<BlobSetCommittable>> requests = new ArrayList<>();
        for (BlobSetCommittable committable : committables) {
            requests.add(new Request(committable));
        }
        try (BlobSetCommitter committer = new BlobSetCommitter(metrics, 1 << 20)) {
            committer.commit(requests);
        }
    }

    /** A processing-time clock that moves only when told. */
    static final class ManualClock implements ProcessingTimeService {
        long now = 1_000_000;

        @Override
        public long getCurrentProcessingTime() {
            return now;
        }

        @Override
        public ScheduledFuture<?> registerTimer(long timestamp, ProcessingTimeCallback target) {
            throw new UnsupportedOperationException("the writer sets no timers");
        }
    }

    /** A commit request as Flink's committer operator passes it; the committer signals nothing on success. */
    private record Request(BlobSetCommittable committable) implements Committer.CommitRequest<BlobSetCommittable> {
        @Override
        public BlobSetCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            throw new AssertionError("unexpected failure signal", t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            throw new AssertionError("unexpected failure signal", t);
        }

        @Override
        public void retryLater() {
            throw new AssertionError("unexpected retry");
        }

        @Override
        public void updateAndRetryLater(BlobSetCommittable committable) {
            throw new AssertionError("unexpected retry");
        }

        @Override
        public void signalAlreadyCommitted() {
            throw new AssertionError("unexpected already-committed signal");
        }
    }
}
