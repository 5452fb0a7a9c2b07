package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.storage.FlinkFileSystemStorage;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backfill} with S3 on both sides (S3Proxy in this JVM, through the flink-s3-fs-hadoop
 * plugin): the old base and its manifests under one prefix, the new base under another; the
 * referenced files are on local disk.
 */
class BackfillS3ITCase {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(BackfillFixture.PARTITIONS);

    @Test
    void backfillsManifestsOnS3IntoABaseOnS3(@TempDir Path dir) throws Exception {
        BackfillFixture fixture = BackfillFixture.make(
                KAFKA, "s3-old", S3.uri("old-base"), dir.resolve("external"), S3CliOptions.withS3Options(S3));
        URI base = S3.uri("new-base");
        KAFKA.createTopic("s3-descriptors", 1);
        KAFKA.createTopic("s3-dead-letters", 1);

        List<String> args = new ArrayList<>(List.of(
                "backfill",
                "--bootstrap-servers",
                KAFKA.bootstrapServers(),
                "--from",
                fixture.manifests().toString(),
                "--descriptor-topic",
                "s3-descriptors",
                "--dlq-topic",
                "s3-dead-letters",
                "--base",
                base.toString(),
                "--parallelism",
                Integer.toString(BackfillFixture.PARTITIONS),
                "--checkpoint-interval",
                "1s",
                "-D",
                "external.allowed-prefixes=" + fixture.externalPrefix));
        RunResult run = TestEnvironment.runCli(S3CliOptions.withS3Options(S3, args.toArray(String[]::new)));

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(fixture.manifests().getScheme()).isEqualTo("s3");
        fixture.assertBackfilled(KAFKA, "s3-descriptors", "s3-dead-letters", base, new FlinkFileSystemStorage());
        assertThat(S3.inProgressMultipartUploads())
                .as("uploads left in progress")
                .noneMatch(upload -> upload.key().startsWith("new-base/"));
    }
}
