package io.blobingest.job.launch;

import io.blobingest.job.RunBaseline;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.BoundedRunOffsets;
import io.blobingest.kafka.DescriptorTopicRecreatedException;
import io.blobingest.kafka.InputTopics;
import io.blobingest.kafka.LineageClaims;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options and conventions of the commands that run a job ({@code run}, {@code backfill}):
 * settings from, in rising precedence, defaults, the {@code --config} file (Flink YAML), these
 * options and {@code -D key=value}; checkpoints retained under {@code --checkpoint-dir} for {@code
 * --resume}; a bad setting is a usage error.
 */
final class JobOptions {

    /** Builds a job's topology into an environment; may refuse the configuration. */
    @FunctionalInterface
    interface Topology {
        void build(StreamExecutionEnvironment env, Configuration config);
    }

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** This start's claim of its lineage, from {@link #build} until its job has ended. */
    private LineageClaims.Held lineageClaim;

    @Option(names = "--bootstrap-servers", description = "Kafka bootstrap servers (kafka.bootstrap-servers).")
    String bootstrapServers;

    @Option(
            names = "--input-topic",
            description = "Topic of blobs to ingest, or several separated by commas (kafka.input-topic).")
    String inputTopic;

    @Option(
            names = "--input-topic-pattern",
            description = "Ingest every topic whose name matches this regular expression, also topics created"
                    + " later (kafka.input-topic-pattern).")
    String inputTopicPattern;

    @Option(
            names = "--start-from",
            description = "Where a start without a checkpoint to resume reads from: group, earliest, latest or"
                    + " timestamp:<epoch ms> (kafka.start-from; default: group).")
    String startFrom;

    @Option(names = "--descriptor-topic", description = "Topic for descriptors (kafka.descriptor-topic).")
    String descriptorTopic;

    @Option(names = "--dlq-topic", description = "Dead-letter topic (kafka.dead-letter-topic).")
    String deadLetterTopic;

    @Option(
            names = "--group-id",
            description = "Consumer group and transactional id prefix (kafka.group-id;"
                    + " default: blob-ingest-<input topic> for run, blob-backfill-<input topic> for backfill, if"
                    + " there is one input topic).")
    String groupId;

    @Option(names = "--base", description = "Storage root, a directory or URI (sink.raw-pack.base-path).")
    String base;

    @Option(names = "--parallelism", description = "Job parallelism (parallelism.default).")
    Integer parallelism;

    @Option(
            names = "--checkpoint-interval",
            description = "Checkpoint interval, e.g. 10s" + " (execution.checkpointing.interval; default: 10s).")
    String checkpointInterval;

    @Option(names = "--bounded", description = "Read up to the offsets that are latest at start, commit, exit 0.")
    boolean bounded;

    @Option(
            names = "--checkpoint-dir",
            description = "Directory where checkpoints are retained"
                    + " (execution.checkpointing.dir); a start that finds one there resumes from the latest.")
    Path checkpointDir;

    @Option(
            names = "--resume",
            description = "Restart from the latest checkpoint retained in the checkpoint"
                    + " directory, and fail if there is none (without it, a retained checkpoint is resumed"
                    + " all the same).")
    boolean resume;

    @Option(
            names = "--fresh",
            description = "Start from the consumer group's committed offsets even when a checkpoint"
                    + " is retained, or without a checkpoint directory: descriptors the last run had not yet committed"
                    + " are"
                    + " then never delivered.")
    boolean fresh;

    @Option(names = "--config", description = "A Flink YAML configuration file with any option of the job.")
    Path configFile;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "Any configuration option, e.g." + " -D sink.raw-pack.roll-policy=size-or-time.")
    Map<String, String> dynamicOptions = new LinkedHashMap<>();

    /**
     * The job's configuration from file, options and -D, in that order of precedence.
     *
     * @param groupIdPrefix the default {@code kafka.group-id} is this followed by the input topic
     */
    Configuration configuration(String groupIdPrefix) throws IOException {
        Configuration config =
                configFile == null ? new Configuration() : ConfigFiles.load(configFile, spec.commandLine());
        config.set(PipelineOptions.NAME, "blob-ingest");
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        if (!config.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL) || checkpointInterval != null) {
            config.set(
                    CheckpointingOptions.CHECKPOINTING_INTERVAL,
                    duration("--checkpoint-interval", checkpointInterval == null ? "10s" : checkpointInterval));
        }
        if (!config.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
            config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
            config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        }
        setIfGiven(config, BlobKafkaOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        setIfGiven(config, BlobKafkaOptions.INPUT_TOPIC.key(), inputTopic);
        setIfGiven(config, BlobKafkaOptions.INPUT_TOPIC_PATTERN.key(), inputTopicPattern);
        setIfGiven(config, BlobKafkaOptions.START_FROM.key(), startFrom);
        setIfGiven(config, BlobKafkaOptions.DESCRIPTOR_TOPIC.key(), descriptorTopic);
        setIfGiven(config, BlobKafkaOptions.DEAD_LETTER_TOPIC.key(), deadLetterTopic);
        setIfGiven(config, BlobKafkaOptions.GROUP_ID.key(), groupId);
        if (base != null) {
            config.set(RawPackSinkOptions.BASE_PATH, Locations.toUri(base).toString());
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw new ParameterException(spec.commandLine(), "--parallelism must be >= 1, found " + parallelism);
            }
            config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        if (bounded) {
            config.set(BlobKafkaOptions.BOUNDED, true);
        }
        if (checkpointDir != null) {
            config.set(
                    CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                    checkpointDir.toAbsolutePath().toUri().toString());
            config.set(
                    CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        }
        dynamicOptions.forEach(config::setString);
        if (!config.contains(BlobKafkaOptions.GROUP_ID)) {
            Optional<InputTopics> inputs;
            try {
                inputs = InputTopics.fromConfig(config);
            } catch (IllegalConfigurationException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            if (inputs.isPresent() && inputs.get().names().size() != 1) {
                throw new ParameterException(
                        spec.commandLine(),
                        "several input topics or a pattern need --group-id (kafka.group-id): the default, "
                                + groupIdPrefix + "<input topic>, is named after one topic");
            }
            inputs.ifPresent(topics -> config.set(
                    BlobKafkaOptions.GROUP_ID, groupIdPrefix + topics.names().get(0)));
        }
        return config;
    }

    /** Whether {@code config} names input topics: a run, or a backfill from a topic. */
    static boolean readsTopics(ReadableConfig config) {
        return config.getOptional(BlobKafkaOptions.INPUT_TOPIC).isPresent()
                || config.getOptional(BlobKafkaOptions.INPUT_TOPIC_PATTERN).isPresent();
    }

    /**
     * A new environment with {@code topology} built into it; a refused option is a usage error, and
     * so is another start of this job's lineage that claimed it first, or another job running on its
     * transactional ids. The claim is held until {@link #execute} sees the job end.
     */
    StreamExecutionEnvironment build(Configuration config, Topology topology) throws Exception {
        fixJobId(config);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        BlobKafkaConnectors kafka;
        try {
            topology.build(env, config);
            if (config.get(BlobKafkaOptions.BOUNDED) && readsTopics(config)) {
                // Built once to check every setting before asking Kafka anything, then again to stop
                // at the end offsets fixed now, which the launcher commits for the group afterwards.
                BoundedRunOffsets.fix(config);
                env = StreamExecutionEnvironment.getExecutionEnvironment(config);
                topology.build(env, config);
            }
            kafka = readsTopics(config)
                    ? BlobKafkaConnectors.fromConfig(config)
                    : BlobKafkaConnectors.sinksFromConfig(config);
        } catch (IllegalConfigurationException | IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        try {
            lineageClaim = kafka.claimLineage(env instanceof LocalStreamEnvironment);
        } catch (LineageClaims.RefusedException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    e.getMessage() + ": both use kafka.transactional-id-prefix '" + kafka.lineage()
                            + "' (by default kafka.group-id), and two runs of one job deliver every input twice. Let"
                            + " that run end, or give this one its own --group-id; a start that died stops"
                            + " counting once its launcher's process is gone, on another host after "
                            + config.get(BlobKafkaOptions.LINEAGE_CLAIM_WINDOW).toSeconds()
                            + " s (kafka.lineage-claim-window).");
        }
        Optional<String> otherJob = kafka.runningJobOnTheTransactionalIds();
        if (otherJob.isPresent()) {
            releaseLineage();
            throw new ParameterException(
                    spec.commandLine(),
                    otherJob.get() + ". Two jobs on one prefix fence each"
                            + " other's transactions: stop the other job, or give this one its own --group-id.");
        }
        return env;
    }

    /** Ends this start's claim of its lineage, if it holds one: its job has ended, or never began. */
    private void releaseLineage() throws InterruptedException, ExecutionException {
        if (lineageClaim != null) {
            LineageClaims.Held claim = lineageClaim;
            lineageClaim = null;
            claim.release();
        }
    }

    /** Runs the job built into {@code env}; empty if it was submitted detached to a cluster. */
    Optional<JobExecutionResult> execute(StreamExecutionEnvironment env, Configuration config) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        recordLineage(config);
        JobExecutionResult result;
        try {
            result = env instanceof LocalStreamEnvironment
                    ? LocalRun.execute(env, config.get(PipelineOptions.NAME), out)
                    : env.execute(config.get(PipelineOptions.NAME));
            if (result.isJobExecutionResult()) {
                releaseLineage();
            }
        } catch (Exception e) {
            try {
                releaseLineage();
            } catch (InterruptedException | ExecutionException releaseFailure) {
                e.addSuppressed(releaseFailure);
            }
            Optional<DescriptorTopicRecreatedException> recreated =
                    ExceptionUtils.findThrowable(e, DescriptorTopicRecreatedException.class);
            if (recreated.isPresent()) {
                // Its message is the whole story; the chain of Flink's restarts around it is not.
                throw recreated.get();
            }
            if (ExceptionUtils.findThrowable(e, ProducerFencedException.class).isPresent()) {
                String prefix = BlobKafkaConnectors.lineage(config).orElseThrow();
                throw new IllegalStateException(
                        "the job was fenced: another producer took over its Kafka"
                                + " transactional ids (prefix '" + prefix
                                + "', kafka.transactional-id-prefix, by default"
                                + " kafka.group-id), most likely another job with the same --group-id; two jobs on one"
                                + " prefix fence each other's transactions",
                        e);
            }
            throw e;
        }
        if (!result.isJobExecutionResult()) {
            out.printf("blob-ingest: submitted job %s (detached)%n", result.getJobID());
            out.flush();
            return Optional.empty();
        }
        out.printf("blob-ingest: job %s finished after %d ms%n", result.getJobID(), result.getNetRuntime());
        out.flush();
        Map<TopicPartition, Long> moved = BoundedRunOffsets.advanceGroup(config);
        if (!moved.isEmpty()) {
            out.printf(
                    "blob-ingest: consumer group %s moved to where the run stopped (topic-partition=offset): %s%n",
                    config.get(BlobKafkaOptions.GROUP_ID), moved);
            out.flush();
        }
        if (env instanceof LocalStreamEnvironment) {
            requireCheckpointsDiscarded(result, config);
        }
        return Optional.of(result);
    }

    /**
     * Gives the job its id before it is built, so that its checkpoints' directory ({@code <checkpoint
     * dir>/<job id>/}) is known before submission ({@link #recordLineage}): {@code
     * $internal.pipeline.job-id} ({@link PipelineOptionsInternal#PIPELINE_FIXED_JOB_ID}), which
     * Flink's executors apply to the stream graph ({@code PipelineExecutorUtils.getStreamGraph}: the
     * local executor and {@code flink run}'s). One already given (by the user, or by the cluster in
     * application mode) is kept. Nothing to do without a checkpoint directory.
     */
    private static void fixJobId(Configuration config) {
        if (checkpointDirectory(config).isEmpty()) {
            return;
        }
        ReadableConfig context =
                StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration();
        String jobId = config.getOptional(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID)
                .or(() -> context.getOptional(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID))
                .orElseGet(() -> JobID.generate().toHexString());
        config.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, jobId);
    }

    /**
     * Records the job's lineage in its checkpoints' directory before it is submitted ({@link
     * RetainedCheckpoints#recordLineage}), so that a later start of the same lineage finds its
     * checkpoints and a start of another lineage leaves them alone.
     */
    private static void recordLineage(Configuration config) {
        Optional<String> directory = checkpointDirectory(config);
        Optional<String> jobId = config.getOptional(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID);
        Optional<String> lineage = BlobKafkaConnectors.lineage(config);
        if (directory.isPresent() && jobId.isPresent() && lineage.isPresent()) {
            RetainedCheckpoints.recordLineage(
                    new org.apache.flink.core.fs.Path(directory.get()).toUri(),
                    jobId.get(),
                    lineage.get(),
                    config.get(RawPackSinkOptions.BASE_PATH),
                    RetainedCheckpoints.openWindow(
                            config.get(RawPackSinkOptions.ROLL_POLICY) == RollPolicy.SIZE_OR_TIME
                                    ? config.get(RawPackSinkOptions.ROLL_INTERVAL)
                                    : Duration.ZERO,
                            config.get(CheckpointingOptions.CHECKPOINTING_INTERVAL),
                            config.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT)));
        }
    }

    /** {@code execution.checkpointing.dir} of the job or, under {@code flink run}, of the cluster. */
    private static Optional<String> checkpointDirectory(Configuration config) {
        return config.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                .or(() -> StreamExecutionEnvironment.getExecutionEnvironment()
                        .getConfiguration()
                        .getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY));
    }

    /**
     * Checks that the finished local job left no checkpoint: {@link LocalRun} returned once its
     * MiniCluster had shut down, and so Flink had discarded them, unless a deletion failed (Flink
     * only logs that). The next plain start would resume from the final checkpoint of a job whose
     * sources finished. Under {@code flink run} the cluster discards them, whenever the client exits.
     */
    private static void requireCheckpointsDiscarded(JobExecutionResult result, Configuration config) {
        Optional<String> directory = config.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY);
        if (directory.isEmpty()) {
            return;
        }
        Optional<URI> claimed = config.get(StateRecoveryOptions.RESTORE_MODE) == RecoveryClaimMode.CLAIM
                ? config.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
                        .map(path -> new org.apache.flink.core.fs.Path(path).toUri())
                : Optional.empty();
        RetainedCheckpoints.requireDiscarded(
                new org.apache.flink.core.fs.Path(directory.get()).toUri(),
                result.getJobID().toHexString(),
                claimed);
    }

    /** Lists the manifests under the base before a bounded job starts, for its summary. */
    static RunBaseline baseline(Configuration config) throws IOException {
        return RunBaseline.take(new org.apache.flink.core.fs.Path(config.get(RawPackSinkOptions.BASE_PATH)));
    }

    /**
     * Where the job starts. A retained checkpoint is the only record of what the last run committed
     * but had not yet delivered: a blob set's descriptors commit one checkpoint after its bytes, so
     * a start from the consumer group's offsets never delivers them, and skips their inputs where
     * the offsets are already past them or places them again in new sets (spec.md section 6.2). So
     * a start that finds a retained checkpoint of its own lineage resumes from the newest one
     * (Flink's last-state upgrade mode) and claims it, so that Flink deletes it once a newer one
     * subsumes it and no later start goes back to it; {@code --fresh} is the explicit way to start
     * from the group's offsets, and an unbounded run needs a checkpoint directory or {@code --fresh}.
     * A restore path already given ({@code execution.state-recovery.path}, {@code flink run -s}) is
     * left as it is. The checkpoint directory is the job's own or, under {@code flink run}, the
     * cluster's, shared by every job there: only checkpoints recorded under this job's lineage (its
     * transactional id prefix) are candidates, and a newer one without a record is refused ({@link
     * RetainedCheckpoints#select}). Called by each command on its finished configuration.
     *
     * @param bounded whether the job ends by itself
     */
    void chooseStart(Configuration config, boolean bounded) {
        if (resume && fresh) {
            throw new ParameterException(spec.commandLine(), "--resume and --fresh exclude each other");
        }
        ReadableConfig context =
                StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration();
        if (config.contains(StateRecoveryOptions.SAVEPOINT_PATH)
                || context.getOptional(StateRecoveryOptions.SAVEPOINT_PATH).isPresent()) {
            if (resume || fresh) {
                throw new ParameterException(
                        spec.commandLine(),
                        (resume ? "--resume" : "--fresh")
                                + " and a given restore path (" + StateRecoveryOptions.SAVEPOINT_PATH.key()
                                + ", flink run -s) exclude each other");
            }
            return;
        }
        if (fresh) {
            return;
        }
        Optional<String> directory = checkpointDirectory(config);
        if (directory.isEmpty()) {
            if (resume) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--resume needs --checkpoint-dir (or " + CheckpointingOptions.CHECKPOINTS_DIRECTORY.key()
                                + ")");
            }
            if (!bounded) {
                throw new ParameterException(
                        spec.commandLine(),
                        "an unbounded run needs --checkpoint-dir (or "
                                + CheckpointingOptions.CHECKPOINTS_DIRECTORY.key() + "): after a crash only a retained"
                                + " checkpoint delivers the descriptors of the blob sets committed last, a start from"
                                + " the"
                                + " consumer group's offsets never does; --fresh runs without one and accepts that"
                                + " loss");
            }
            return;
        }
        Optional<String> lineage = BlobKafkaConnectors.lineage(config);
        if (lineage.isEmpty()) {
            return; // the job has no transactional id prefix: building it refuses the configuration
        }
        URI checkpoints = new org.apache.flink.core.fs.Path(directory.get()).toUri();
        RetainedCheckpoints.Selection selection;
        try {
            selection = RetainedCheckpoints.select(
                    checkpoints,
                    lineage.get(),
                    config.getOptional(RawPackSinkOptions.BASE_PATH).orElse(null));
        } catch (RetainedCheckpoints.UnrecordedCheckpointException | RetainedCheckpoints.ChangedSettingException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!selection.otherLineages().isEmpty()) {
            out.printf(
                    "blob-ingest: leaving the checkpoints of other jobs under %s alone (lineages %s; this job's is"
                            + " '%s', %s, by default %s)%n",
                    checkpoints,
                    selection.otherLineages(),
                    lineage.get(),
                    BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX.key(),
                    BlobKafkaOptions.GROUP_ID.key());
            out.flush();
        }
        Optional<URI> latest = selection.latest();
        if (latest.isEmpty()) {
            if (resume) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--resume: no completed checkpoint under " + checkpoints + " of this job's lineage '"
                                + lineage.get() + "'");
            }
            return;
        }
        config.set(StateRecoveryOptions.SAVEPOINT_PATH, latest.get().toString());
        config.set(StateRecoveryOptions.RESTORE_MODE, RecoveryClaimMode.CLAIM);
        out.printf(
                "blob-ingest: resuming from %s, the latest checkpoint of lineage '%s' retained under %s%s%n",
                latest.get(),
                lineage.get(),
                checkpoints,
                resume ? "" : " (--fresh starts from the consumer group's offsets instead)");
        out.flush();
    }

    private Duration duration(String option, String text) {
        try {
            return org.apache.flink.util.TimeUtils.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(), option + ": not a duration: '" + text + "' (e.g. 10s, 1min)");
        }
    }

    private static void setIfGiven(Configuration config, String key, String value) {
        if (value != null) {
            config.setString(key, value);
        }
    }
}
