package io.blobingest.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A setting the job's connectors refuse is a usage error that names the setting. */
class RunUsageTest {

    @TempDir
    Path dir;

    @Test
    void aRefusedKafkaSettingExitsWithUsageAndSaysWhy() {
        CliRun run = CliRun.of(
                "run",
                "--bootstrap-servers",
                "localhost:1",
                "--input-topic",
                "blobs",
                "--descriptor-topic",
                "same",
                "--dlq-topic",
                "same",
                "--base",
                dir.resolve("base").toString(),
                "--bounded");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("the input, descriptor and dead-letter topics must differ");
    }

    @Test
    void theLineageTopicMustBeItsOwn() {
        CliRun run = CliRun.of(
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
                "--bounded",
                "-D",
                "kafka.lineage-topic=descriptors");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("kafka.lineage-topic must differ from the input, descriptor and dead-letter");
    }

    @Test
    void anAllowListThatCoversTheBaseIsRefused() {
        CliRun run = CliRun.of(
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
                "--bounded",
                "-D",
                "external.allowed-prefixes=" + dir.toUri());

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(JobCli.EXIT_USAGE);
        assertThat(run.err()).contains("reaches sink.raw-pack.base-path", "External blobs must come from elsewhere");
    }
}
