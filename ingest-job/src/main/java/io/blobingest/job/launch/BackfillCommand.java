package io.blobingest.job.launch;

import io.blobingest.job.BackfillJob;
import io.blobingest.job.IngestJob;
import io.blobingest.job.IngestJobOptions;
import io.blobingest.job.RunBaseline;
import io.blobingest.job.RunSummary;
import io.blobingest.job.internal.SplitManifestRows;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.InputTopics;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code backfill}: a bounded job that re-enters External references in ingest mode, so that their
 * bytes are copied into blob sets under {@code --base}. From descriptor manifests ({@code --from}):
 * External rows are fetched and placed, every other row goes to the descriptor topic unchanged.
 * From a topic ({@code --input-topic}): the ingest job, bounded, with {@code
 * external.force-ingest}. Options and settings as for {@code run} (see {@link JobOptions}); the
 * default consumer group is {@code blob-backfill-<input topic>}, so a backfill never moves the
 * offsets of the ingest job reading the same topic.
 */
@Command(
        name = "backfill",
        mixinStandardHelpOptions = true,
        description = "Re-enter External references in ingest mode: the rows of descriptor manifests (--from), or a"
                + " topic of references (--input-topic); a bounded job.")
@PublicEvolving
public final class BackfillCommand implements Callable<Integer> {

    private static final String DEFAULT_PREFIX = "blob-backfill-";

    @Spec
    CommandSpec spec;

    @Mixin
    JobOptions job;

    @Option(
            names = "--from",
            description = "Descriptor manifests to backfill: a directory such as"
                    + " <old base>/_descriptors (a path, file:// or s3://), or one manifest.")
    String from;

    @Override
    public Integer call() throws Exception {
        Configuration config = configuration();
        FlinkPlugins.initializeFileSystems(config);
        PrintWriter out = spec.commandLine().getOut();
        Optional<Path> manifests = manifests();
        StreamExecutionEnvironment env = manifests.isPresent()
                ? job.build(config, (environment, c) -> BackfillJob.build(environment, c, manifests.get()))
                : job.build(config, IngestJob::build);
        out.printf(
                "blob-ingest backfill: %s -> %s (descriptors: %s, dead letters: %s)%n",
                manifests
                        .map(Path::toString)
                        .orElseGet(
                                () -> "topic " + InputTopics.fromConfig(config).orElseThrow()),
                config.get(RawPackSinkOptions.BASE_PATH),
                config.get(BlobKafkaOptions.DESCRIPTOR_TOPIC),
                config.get(BlobKafkaOptions.DEAD_LETTER_TOPIC));
        out.flush();
        RunBaseline baseline = JobOptions.baseline(config);
        Optional<JobExecutionResult> result = job.execute(env, config);
        if (result.isPresent()) {
            if (manifests.isPresent()) {
                out.printf(
                        "backfill summary: %d re-entered, %d passed through%n",
                        SplitManifestRows.reentered(result.get().getAllAccumulatorResults()),
                        SplitManifestRows.passedThrough(result.get().getAllAccumulatorResults()));
            }
            out.print(RunSummary.of(baseline, result.get(), config).format());
            out.flush();
        }
        return JobCli.EXIT_OK;
    }

    /**
     * The job's configuration, as for {@code run}, plus what a backfill implies: bounded input and
     * forced ingest for the topic form; for the manifest form, a transactional id prefix derived
     * from {@code --from} unless one is configured, so that a resumed backfill finds its own
     * transactions.
     */
    Configuration configuration() throws IOException {
        Configuration config = job.configuration(DEFAULT_PREFIX);
        if (from != null) {
            if (job.inputTopic != null || job.inputTopicPattern != null) {
                throw new ParameterException(spec.commandLine(), "give exactly one of --from and --input-topic");
            }
            if (!config.contains(BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX)
                    && !config.contains(BlobKafkaOptions.GROUP_ID)) {
                config.set(
                        BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX,
                        DEFAULT_PREFIX
                                + UUID.nameUUIDFromBytes(fromUri().toString().getBytes(StandardCharsets.UTF_8)));
            }
        } else {
            if (!JobOptions.readsTopics(config)) {
                throw new ParameterException(spec.commandLine(), "give exactly one of --from and --input-topic");
            }
            config.set(BlobKafkaOptions.BOUNDED, true);
            config.set(IngestJobOptions.EXTERNAL_FORCE_INGEST, true);
        }
        job.chooseStart(config, true);
        return config;
    }

    /** The manifests of {@code --from}, which must exist; empty for the topic form. */
    private Optional<Path> manifests() throws IOException {
        if (from == null) {
            return Optional.empty();
        }
        Path manifests = new Path(fromUri());
        if (!manifests.getFileSystem().exists(manifests)) {
            throw new ParameterException(spec.commandLine(), "--from: no such file or directory: " + manifests);
        }
        return Optional.of(manifests);
    }

    private URI fromUri() {
        return Locations.toUri(from);
    }
}
