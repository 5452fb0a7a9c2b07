package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.launch.JobCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A setting the job refuses is a usage error (exit 2) that says why, before anything is written. */
class RunUsageTest {

    @TempDir
    Path dir;

    @Test
    void aRefusedKafkaSettingExitsWithUsageAndSaysWhy() {
        CliRun run = run("-D", "kafka.descriptor-topic=dead-letters");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("the input, descriptor and dead-letter topics must differ");
    }

    @Test
    void severalInputTopicsNeedAGroupOfTheirOwn() {
        CliRun run = run("-D", "kafka.input-topic=cam-front,cam-rear");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err())
                .contains("several input topics or a pattern need --group-id (kafka.group-id): the default,"
                        + " blob-ingest-<input topic>, is named after one topic");
    }

    @Test
    void topicsNamedAndAPatternAreRefusedTogether() {
        CliRun run = run("--input-topic-pattern", "robots\\..*", "--group-id", "fleet");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("give kafka.input-topic or kafka.input-topic-pattern, not both");
    }

    @Test
    void anUnknownStartPositionIsRefused() {
        CliRun run = run("--start-from", "yesterday");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err())
                .contains(
                        "kafka.start-from must be group, earliest, latest or timestamp:<epoch ms>, found 'yesterday'");
    }

    @Test
    void theLineageTopicMustBeItsOwn() {
        CliRun run = run("-D", "kafka.lineage-topic=descriptors");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("kafka.lineage-topic must differ from the input, descriptor and dead-letter");
    }

    @Test
    void anAllowListThatCoversTheBaseIsRefused() {
        CliRun run = run("-D", "external.allowed-prefixes=" + dir.toUri());

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("reaches sink.raw-pack.base-path", "External blobs must come from elsewhere");
    }

    /** A bounded {@code run} against no broker: every refusal here comes before Kafka is asked anything. */
    private CliRun run(String... options) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                "localhost:1",
                "--input-topic",
                "blobs",
                "--descriptor-topic",
                "descriptors",
                "--dlq-topic",
                "dead-letters",
                "--base",
                dir.resolve("base").toString(),
                "--bounded"));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(String[]::new));
    }
}
