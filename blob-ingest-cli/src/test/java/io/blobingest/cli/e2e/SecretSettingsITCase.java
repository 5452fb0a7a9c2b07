package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.CapturedLog;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets in the job's settings (a Kafka JAAS configuration, Lance's S3 secret key) reach neither
 * the command's output nor any log line; one written where Flink would show it is refused, naming
 * its key only.
 */
class SecretSettingsITCase {

    private static final int PARTITIONS = 2;
    private static final TestWorkload WORKLOAD = new TestWorkload(61, 60);
    private static final String CANARY = "s3cr3t-canary-5f1e";
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"ingest\" password=\"" + CANARY + "\";";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void secretsUnderKeysOfTheirOwnAreUsedAndNeverPrinted() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, WORKLOAD.count());
        Path base = dir.resolve("base");
        List<String> run = command(base);
        run.addAll(List.of(
                "-D", "kafka.properties.sasl.jaas.config=" + JAAS,
                "-D", "sink.lance.dataset-uri=" + dir.resolve("blobs.lance").toUri(),
                "-D", "sink.lance.storage-options.aws_secret_access_key=" + CANARY));

        RunResult result;
        String log;
        try (CapturedLog captured = new CapturedLog()) {
            result = TestEnvironment.runCli(run.toArray(String[]::new));
            log = captured.text();
        }

        assertThat(result.exitCode()).as(result.output()).isZero();
        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
        assertThat(result.output()).doesNotContain(CANARY);
        assertThat(log).as("the log").isNotEmpty().doesNotContain(CANARY);
    }

    @Test
    void aSecretOnTheOneLineOfAMapOptionIsRefusedBeforeTheStart() {
        List<String> run = command(dir.resolve("base"));
        run.addAll(List.of("-D", "kafka.properties=security.protocol:PLAINTEXT,sasl.jaas.config:'" + JAAS + "'"));

        RunResult result = TestEnvironment.runCli(run.toArray(String[]::new));

        assertThat(result.exitCode()).as(result.output()).isEqualTo(2);
        assertThat(result.output())
                .contains(
                        "kafka.properties holds sasl.jaas.config on its one line", "kafka.properties.sasl.jaas.config")
                .doesNotContain(CANARY);
    }

    private List<String> command(Path base) {
        List<String> run = new ArrayList<>(
                ChildProcess.runCommand(KAFKA, "secrets", base, PARTITIONS, "1s", dir.resolve("checkpoints")));
        run.add("--bounded");
        return run;
    }
}
