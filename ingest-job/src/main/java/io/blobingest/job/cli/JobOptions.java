package io.blobingest.job.cli;

import io.blobingest.job.RunBaseline;
import io.blobingest.job.internal.RetainedCheckpoints;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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

    @Spec(Spec.Target.MIXEE) CommandSpec spec;

    @Option(names = "--bootstrap-servers", description = "Kafka bootstrap servers (kafka.bootstrap-servers).")
    String bootstrapServers;

    @Option(names = "--input-topic", description = "Topic of blobs to ingest (kafka.input-topic).")
    String inputTopic;

    @Option(names = "--descriptor-topic", description = "Topic for descriptors (kafka.descriptor-topic).")
    String descriptorTopic;

    @Option(names = "--dlq-topic", description = "Dead-letter topic (kafka.dead-letter-topic).")
    String deadLetterTopic;

    @Option(names = "--group-id", description = "Consumer group and transactional id prefix (kafka.group-id;"
            + " default: blob-ingest-<input topic> for run, blob-backfill-<input topic> for backfill).")
    String groupId;

    @Option(names = "--base", description = "Storage root, a directory or URI (sink.raw-pack.base-path).")
    String base;

    @Option(names = "--parallelism", description = "Job parallelism (parallelism.default).")
    Integer parallelism;

    @Option(names = "--checkpoint-interval", description = "Checkpoint interval, e.g. 10s"
            + " (execution.checkpointing.interval; default: 10s).")
    String checkpointInterval;

    @Option(names = "--bounded", description = "Read up to the offsets that are latest at start, commit, exit 0.")
    boolean bounded;

    @Option(names = "--checkpoint-dir", description = "Directory where checkpoints are retained, for --resume.")
    Path checkpointDir;

    @Option(names = "--resume", description = "Restart from the latest checkpoint retained under --checkpoint-dir.")
    boolean resume;

    @Option(names = "--config", description = "A Flink YAML configuration file with any option of the job.")
    Path configFile;

    @Option(names = "-D", paramLabel = "KEY=VALUE", description = "Any configuration option, e.g."
            + " -D sink.raw-pack.roll-policy=size-or-time.")
    Map<String, String> dynamicOptions = new LinkedHashMap<>();

    /**
     * The job's configuration from file, options and -D, in that order of precedence.
     *
     * @param groupIdPrefix the default {@code kafka.group-id} is this followed by the input topic
     */
    Configuration configuration(String groupIdPrefix) throws IOException {
        Configuration config = configFile == null ? new Configuration() : ConfigFiles.load(configFile, spec.commandLine());
        config.set(PipelineOptions.NAME, "blob-ingest");
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        if (!config.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL) || checkpointInterval != null) {
            config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, duration("--checkpoint-interval",
                    checkpointInterval == null ? "10s" : checkpointInterval));
        }
        if (!config.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
            config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
            config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        }
        setIfGiven(config, BlobKafkaOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        setIfGiven(config, BlobKafkaOptions.INPUT_TOPIC.key(), inputTopic);
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
            config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toAbsolutePath().toUri().toString());
            config.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        }
        dynamicOptions.forEach(config::setString);
        if (!config.contains(BlobKafkaOptions.GROUP_ID) && config.contains(BlobKafkaOptions.INPUT_TOPIC)) {
            config.set(BlobKafkaOptions.GROUP_ID, groupIdPrefix + config.get(BlobKafkaOptions.INPUT_TOPIC));
        }
        if (resume) {
            config.set(StateRecoveryOptions.SAVEPOINT_PATH, latestCheckpoint().toUri().toString());
        }
        return config;
    }

    /** A new environment with {@code topology} built into it; a refused option is a usage error. */
    StreamExecutionEnvironment build(Configuration config, Topology topology) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        try {
            topology.build(env, config);
        } catch (IllegalConfigurationException | IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, null);
        }
        return env;
    }

    /** Runs the job built into {@code env}; empty if it was submitted detached to a cluster. */
    Optional<JobExecutionResult> execute(StreamExecutionEnvironment env, Configuration config) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        JobExecutionResult result = env.execute(config.get(PipelineOptions.NAME));
        if (!result.isJobExecutionResult()) {
            out.printf("blob-ingest: submitted job %s (detached)%n", result.getJobID());
            out.flush();
            return Optional.empty();
        }
        out.printf("blob-ingest: job %s finished after %d ms%n", result.getJobID(), result.getNetRuntime());
        out.flush();
        return Optional.of(result);
    }

    /** Lists the manifests under the base before a bounded job starts, for its summary. */
    static RunBaseline baseline(Configuration config) throws IOException {
        return RunBaseline.take(new org.apache.flink.core.fs.Path(config.get(RawPackSinkOptions.BASE_PATH)));
    }

    private Path latestCheckpoint() {
        if (checkpointDir == null) {
            throw new ParameterException(spec.commandLine(), "--resume needs --checkpoint-dir");
        }
        Optional<Path> latest = RetainedCheckpoints.latest(checkpointDir);
        return latest.orElseThrow(() -> new ParameterException(
                spec.commandLine(), "--resume: no completed checkpoint under " + checkpointDir.toAbsolutePath()));
    }

    private Duration duration(String option, String text) {
        try {
            return org.apache.flink.util.TimeUtils.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + ": not a duration: '" + text + "' (e.g. 10s, 1min)");
        }
    }

    private static void setIfGiven(Configuration config, String key, String value) {
        if (value != null) {
            config.setString(key, value);
        }
    }
}
