package io.blobingest.job.launch;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.client.deployment.executors.LocalExecutor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.ExceptionUtils;

/**
 * Runs the job built into a {@link LocalStreamEnvironment} on a MiniCluster this process holds,
 * and returns only once that cluster has shut down. {@code env.execute()} returns as soon as the
 * job's result is known and leaves the per-job MiniCluster to close asynchronously (Flink 2.2
 * {@code MiniClusterJobClient}, {@code SHUTDOWN_CLUSTER}); a finished job's checkpoints are
 * discarded during that shutdown, which the CLI's {@code System.exit} cut short. The cluster is the
 * one {@code env.execute()} would start, made by Flink's {@link LocalExecutor} and {@code
 * PerJobMiniClusterFactory} from the environment's configuration (restore path and mode, slots for
 * the job's parallelism, REST on a free port); this class only keeps hold of it to await its close.
 */
final class LocalRun {

    private static final Duration FAILURE_POLL_PERIOD = Duration.ofSeconds(1);

    private LocalRun() {}

    /**
     * Runs the job; returns its result, or throws its failure, once the cluster has terminated.
     *
     * @param env a {@link LocalStreamEnvironment} with a job built into it
     * @param out where each failure the job restarts from is reported ({@link FailureReporter})
     */
    static JobExecutionResult execute(StreamExecutionEnvironment env, String jobName, PrintWriter out)
            throws Exception {
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(jobName);
        Configuration config = Configuration.fromMap(env.getConfiguration().toMap());
        AtomicReference<MiniCluster> cluster = new AtomicReference<>();
        LocalExecutor executor = LocalExecutor.createWithFactory(config, clusterConfig -> {
            MiniCluster miniCluster = new MiniCluster(clusterConfig);
            cluster.set(miniCluster);
            return miniCluster;
        });
        JobExecutionResult result;
        try {
            JobClient client = executor.execute(graph, config, LocalRun.class.getClassLoader())
                    .get();
            try (FailureReporter reporter =
                    FailureReporter.start(cluster.get(), client.getJobID(), out, FAILURE_POLL_PERIOD)) {
                result = client.getJobExecutionResult().get();
            }
        } catch (Exception e) {
            Exception failure =
                    e instanceof ExecutionException ? asException(ExceptionUtils.stripExecutionException(e)) : e;
            try {
                // Flink closes the cluster after a failure too; an interrupted wait leaves the job
                // running, and this close cancels it.
                awaitClosed(cluster.get());
            } catch (Exception closeFailure) {
                failure.addSuppressed(closeFailure);
            }
            throw failure;
        }
        awaitClosed(cluster.get());
        return result;
    }

    /**
     * Closes the cluster, or joins the close Flink has begun ({@code MiniCluster.closeAsync}
     * returns the one termination future), and waits for it: the finished job's JobMaster, its
     * checkpoint store's discard and the CheckpointsCleaner's deletions come before it (Flink 2.2
     * {@code Dispatcher.onStop}, {@code SchedulerBase.closeAsync}). The wait has no deadline of its
     * own: Flink's shutdown is bounded by its own timeouts ({@code cluster.services.shutdown-timeout}).
     */
    private static void awaitClosed(MiniCluster cluster) throws Exception {
        if (cluster == null) {
            return;
        }
        try {
            cluster.closeAsync().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "the job's local Flink cluster failed to shut down", ExceptionUtils.stripExecutionException(e));
        }
    }

    private static Exception asException(Throwable throwable) {
        return throwable instanceof Exception exception ? exception : new RuntimeException(throwable);
    }
}
