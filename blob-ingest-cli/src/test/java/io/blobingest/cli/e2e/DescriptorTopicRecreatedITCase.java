package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.TestWorkload;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chaos fault (f): an operator deletes the descriptor topic while {@code ./blob-ingest run} runs and
 * creates it again. The descriptors committed before are gone with the old topic; a job that went
 * on would fill the new one with the rest of its output only, and nobody could tell the topic is
 * half of what the manifests hold. The job must refuse instead, loudly: it fails, the command line
 * prints one line saying what happened, the new topic holds no committed descriptor, and the same
 * command started again is refused the same way.
 */
@Tag("chaos")
class DescriptorTopicRecreatedITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(37, 600);
    /** Past the 5-20 MiB records: the first part is delivered within a few checkpoints. */
    private static final int FIRST = 100;

    private static final int BEFORE_RECREATION = 300;
    private static final String REFUSAL = "error: descriptor topic 'descriptors' was deleted and recreated since this"
            + " job first delivered to it (topic id ";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aDescriptorTopicDeletedAndRecreatedUnderTheRunningJobIsRefusedAndNothingIsCommittedIntoIt() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        List<String> run = ChildProcess.runCommand(
                KAFKA, "recreated-topic", dir.resolve("base"), PARTITIONS, "1s", dir.resolve("checkpoints"));
        ChildProcess first = null;
        ChildProcess again = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, FIRST, BEFORE_RECREATION);
            first = ChildProcess.start(run, dir.resolve("first.log"));
            first.awaitCommittedDescriptors(KAFKA, "descriptors", BEFORE_RECREATION - FIRST, TIMEOUT);
            Uuid old = recreateDescriptorTopic();

            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_RECREATION, WORKLOAD.count());
            assertRefused(first, old);

            again = ChildProcess.start(run, dir.resolve("again.log"));
            assertRefused(again, old);
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, again);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, again);
        }
    }

    /**
     * The job ends failed with the one-line refusal naming the old topic id, and never commits a
     * descriptor into the new topic: the wait fails as soon as one is committed while it runs.
     */
    private static void assertRefused(ChildProcess child, Uuid old) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (child.process().isAlive()) {
            assertThat(KAFKA.drainCommitted("descriptors").size())
                    .as("committed descriptors in the recreated topic while the job runs")
                    .isZero();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the job neither refused nor ended within " + TIMEOUT);
            }
            Thread.sleep(500);
        }
        assertThat(child.process().exitValue())
                .as("exit code of the refused run")
                .isEqualTo(1);
        assertThat(child.output()).contains(REFUSAL + old + ", now ");
        assertThat(KAFKA.drainCommitted("descriptors").size())
                .as("committed descriptors in the recreated topic")
                .isZero();
    }

    /** Deletes the descriptor topic, waits until the broker no longer knows it, creates it again. */
    private static Uuid recreateDescriptorTopic() throws Exception {
        Properties properties = new Properties();
        properties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        try (Admin admin = Admin.create(properties)) {
            Uuid old = topicId(admin).orElseThrow();
            admin.deleteTopics(List.of("descriptors")).all().get(1, TimeUnit.MINUTES);
            awaitTopicId(admin, "deleted", Optional::isEmpty);
            KAFKA.createTopic("descriptors", 1);
            awaitTopicId(
                    admin, "created again", id -> id.isPresent() && !id.get().equals(old));
            return old;
        }
    }

    private static void awaitTopicId(Admin admin, String what, Predicate<Optional<Uuid>> condition) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.test(topicId(admin))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("descriptors not " + what + " within " + TIMEOUT);
            }
            Thread.sleep(200);
        }
    }

    private static Optional<Uuid> topicId(Admin admin) throws Exception {
        try {
            return Optional.of(admin.describeTopics(List.of("descriptors"))
                    .allTopicNames()
                    .get(1, TimeUnit.MINUTES)
                    .get("descriptors")
                    .topicId());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
