package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint resumed after the brokers forgot its transactions: last week's savepoint, or a
 * retained checkpoint older than {@code transactional.id.expiration.ms} (7 days by default, a few
 * seconds here). Its descriptor transactions ended long ago, so the ids it holds are unknown to the
 * brokers; the resumed job must still deliver every input exactly once.
 */
class ExpiredTransactionsResumeITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(53, 900);
    private static final int BEFORE_START = 300;
    private static final int BEFORE_KILL = 600;
    private static final String GROUP = "expired";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.withBrokerSettings(Map.of(
            "transactional.id.expiration.ms", "2000",
            "transaction.remove.expired.transaction.cleanup.interval.ms", "500",
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "500"));

    @TempDir
    Path dir;

    @Test
    void aRetainedCheckpointWhoseTransactionsTheBrokerForgotResumesExactlyOnce() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        List<String> run = new ArrayList<>(
                ChildProcess.runCommand(KAFKA, GROUP, base, PARTITIONS, "1s", dir.resolve("checkpoints")));
        // Short transactions, so that the killed run's open ones are aborted, and then forgotten, soon.
        run.addAll(List.of(
                "-D", "kafka.transaction-timeout=12s",
                "-D", "kafka.transaction-restart-allowance=1s",
                "-D", "execution.checkpointing.timeout=5s",
                // No External blobs here; the checkpoint timeout must cover the copies they could queue.
                "-D", "external.fetch-concurrency=1",
                "-D", "sink.raw-pack.external-copy-timeout=2s"));
        List<String> restart = new ArrayList<>(run);
        restart.add("--bounded");
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            first = ChildProcess.start(run, dir.resolve("first.log"));
            first.awaitCommittedDescriptors(KAFKA, "descriptors", TIMEOUT);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_START, BEFORE_KILL);
            first.awaitACommittedSetWithoutDescriptors(KAFKA, "descriptors", base, BEFORE_START, TIMEOUT);
            first.kill();
            awaitNoTransactionOf(GROUP);

            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_KILL, WORKLOAD.count());
            second = ChildProcess.start(restart, dir.resolve("second.log"));
            assertThat(second.awaitExit(TIMEOUT))
                    .as("exit code of the resumed run")
                    .isZero();
            assertThat(second.output()).contains("resuming from");

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, second);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, second);
        }
    }

    /** Waits until the brokers list no transactional id of the prefix: aborted, expired and removed. */
    private static void awaitNoTransactionOf(String prefix) throws Exception {
        Properties properties = new Properties();
        properties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (Admin admin = Admin.create(properties)) {
            while (true) {
                List<String> left = admin.listTransactions().all().get().stream()
                        .map(TransactionListing::transactionalId)
                        .filter(id -> id.startsWith(prefix + "-"))
                        .toList();
                if (left.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("transactions not forgotten within " + TIMEOUT + ": " + left);
                }
                Thread.sleep(500);
            }
        }
    }
}
