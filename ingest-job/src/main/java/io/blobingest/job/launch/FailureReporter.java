package io.blobingest.job.launch;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.executiongraph.ErrorInfo;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prints one line each time the local job fails and Flink restarts it from its last checkpoint:
 * Flink itself reports a failover only in its log, as a task's stack trace, and at its default
 * level not even that names the job's state. The line names the time, the root cause (as {@link
 * JobCli#describe} words it) and what happens next. A failure that ends the job is left to the
 * command's {@code error:} line. The job's state is read from its execution graph every {@code
 * period}.
 */
final class FailureReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FailureReporter.class);
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final MiniCluster cluster;
    private final JobID job;
    private final PrintWriter out;
    private final ScheduledExecutorService timer;
    private long reportedFailureTimestamp;

    private FailureReporter(MiniCluster cluster, JobID job, PrintWriter out) {
        this.cluster = cluster;
        this.job = job;
        this.out = out;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "blob-ingest-failure-reporter");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts reporting the failures of {@code job} on {@code cluster} to {@code out}. */
    static FailureReporter start(MiniCluster cluster, JobID job, PrintWriter out, Duration period) {
        FailureReporter reporter = new FailureReporter(cluster, job, out);
        reporter.timer.scheduleWithFixedDelay(
                reporter::reportNewFailure, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return reporter;
    }

    private void reportNewFailure() {
        ArchivedExecutionGraph graph;
        try {
            graph = cluster.getArchivedExecutionGraph(job).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // The cluster is shutting down, or busy: the next poll asks again.
            LOG.debug("cannot read the state of job {}", job, e);
            return;
        }
        ErrorInfo failure = graph.getFailureInfo();
        if (failure == null
                || failure.getTimestamp() == reportedFailureTimestamp
                || graph.getState().isGloballyTerminalState()
                || graph.getState() == JobStatus.FAILING) {
            return;
        }
        reportedFailureTimestamp = failure.getTimestamp();
        out.println(line(
                job,
                failure.getTimestamp(),
                failure.getException().deserializeError(getClass().getClassLoader())));
        out.flush();
    }

    /** The line for a failure of {@code job} at {@code timestamp} that Flink recovers from. */
    static String line(JobID job, long timestamp, Throwable failure) {
        return "blob-ingest: job " + job + " failed at " + TIME.format(Instant.ofEpochMilli(timestamp))
                + " UTC and restarts from its last checkpoint: " + JobCli.describe(failure);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
