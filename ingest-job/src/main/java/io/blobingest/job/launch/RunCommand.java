package io.blobingest.job.launch;

import io.blobingest.job.IngestJob;
import io.blobingest.job.RunBaseline;
import io.blobingest.job.RunSummary;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.InputTopics;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code run}: the ingest job. In a plain JVM it runs in a local Flink MiniCluster; submitted with
 * {@code flink run} it runs on that cluster. Settings come from, in rising precedence: defaults, the
 * {@code --config} file (Flink YAML), the options of {@link JobOptions}, {@code -D key=value}; the
 * default consumer group is {@code blob-ingest-<input topic>}.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Run the ingest job: Kafka -> placement -> Raw Packs / Dedicated sidecars -> descriptors.")
@PublicEvolving
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    JobOptions job;

    @Override
    public Integer call() throws Exception {
        Configuration config = configuration();
        FlinkPlugins.initializeFileSystems(config);
        PrintWriter out = spec.commandLine().getOut();
        boolean bounded = config.get(BlobKafkaOptions.BOUNDED);
        StreamExecutionEnvironment env = job.build(config, IngestJob::build);
        out.printf(
                "blob-ingest: %s -> %s (descriptors: %s, dead letters: %s)%n",
                InputTopics.fromConfig(config).orElseThrow(),
                config.get(RawPackSinkOptions.BASE_PATH),
                config.get(BlobKafkaOptions.DESCRIPTOR_TOPIC),
                config.get(BlobKafkaOptions.DEAD_LETTER_TOPIC));
        out.flush();
        // Only a bounded run ends by itself, so only then is a summary worth its listing of the base.
        Optional<RunBaseline> baseline = bounded ? Optional.of(JobOptions.baseline(config)) : Optional.empty();
        Optional<JobExecutionResult> result = job.execute(env, config);
        if (result.isPresent() && baseline.isPresent()) {
            out.print(RunSummary.of(baseline.get(), result.get(), config).format());
            out.flush();
        }
        return JobCli.EXIT_OK;
    }

    /** The job's configuration from file, options and -D, in that order of precedence, and where it starts. */
    @VisibleForTesting
    public Configuration configuration() throws IOException {
        Configuration config = job.configuration("blob-ingest-");
        job.chooseStart(config, config.get(BlobKafkaOptions.BOUNDED));
        return config;
    }
}
