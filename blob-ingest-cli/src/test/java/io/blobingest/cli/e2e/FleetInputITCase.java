package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One job for a fleet's topics: several named, or a pattern that also takes in a topic created
 * while the job runs, every input exactly once across a SIGKILL and a plain restart, each topic
 * with its own descriptor topic and Lance dataset; and a first start from a timestamp.
 */
class FleetInputITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    /**
     * {@code run --input-topic-pattern 'fleet\..*'} in a child JVM over two topics; a third is created
     * while it runs and is read from its first record; the job is killed with inputs of all three in
     * flight and started again: every input of the three topics is one descriptor, byte-exact, in its
     * topic's own descriptor topic ({@code --descriptor-topic '{topic}.descriptors'}, created by the
     * job and, though the pattern matches them, never read), and one row of its topic's own Lance
     * dataset ({@code sink.lance.dataset-uri} naming {@code {topic}}), read back through Lance's
     * {@code takeBlobs}.
     */
    @Test
    void aPatternTakesInATopicCreatedWhileTheJobRunsAndEveryInputIsDeliveredOnceAcrossAKill() throws Exception {
        TestWorkload workload = new TestWorkload(61, 900);
        List<String> first = List.of("fleet.cam-front", "fleet.cam-rear");
        List<String> all = List.of("fleet.cam-front", "fleet.cam-rear", "fleet.lidar");
        for (String topic : first) {
            KAFKA.createTopic(topic, PARTITIONS);
        }
        KAFKA.createTopic("fleet-dead-letters", 1);
        List<String> descriptorTopics =
                all.stream().map(topic -> topic + ".descriptors").toList();
        Path base = dir.resolve("base");
        List<String> run = TestEnvironment.runArgumentsMatching(
                        KAFKA, "fleet\\..*", "{topic}.descriptors", "fleet-dead-letters", base)
                .groupId("fleet")
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .checkpointDir(dir.resolve("checkpoints"))
                .set("kafka.partition-discovery-interval", "1s")
                .set(
                        "sink.lance.dataset-uri",
                        dir.resolve("lance").resolve("{topic}.lance").toString())
                .toList();
        List<String> restart = new ArrayList<>(run);
        restart.add("--bounded");
        ChildProcess job = null;
        ChildProcess resumed = null;
        try {
            workload.send(KAFKA, i -> first.get(i % first.size()), PARTITIONS, 0, 300);
            job = ChildProcess.start(run, dir.resolve("first.log"));
            Await.until(
                    () -> descriptors(descriptorTopics, base).size() == 300,
                    "the descriptors of the first 300 inputs",
                    TIMEOUT);

            KAFKA.createTopic("fleet.lidar", PARTITIONS);
            workload.send(KAFKA, i -> all.get(i % all.size()), PARTITIONS, 300, 450);
            Await.until(
                    () -> deliveredFrom("fleet.lidar", base),
                    "a descriptor of the topic created while the job runs",
                    TIMEOUT);
            workload.send(KAFKA, i -> all.get(i % all.size()), PARTITIONS, 450, 600);
            job.awaitACommittedSetWithoutDescriptors(KAFKA, descriptorTopics, base, 450, TIMEOUT);
            job.kill();

            workload.send(KAFKA, i -> all.get(i % all.size()), PARTITIONS, 600, workload.count());
            resumed = ChildProcess.start(restart, dir.resolve("resumed.log"));
            assertThat(resumed.awaitExit(TIMEOUT))
                    .as("exit code of the restart")
                    .isZero();

            assertThat(KAFKA.topics())
                    .as("topics: the job created one descriptor topic per input topic")
                    .containsAll(descriptorTopics)
                    .noneMatch(topic -> topic.endsWith(".descriptors.descriptors"));
            PipelineOutput output = PipelineOutput.read(KAFKA, descriptorTopics, base);
            output.assertExactlyOnceAndByteExact(workload, indices(0, workload.count()));
            assertThat(sourceTopics(output))
                    .as("descriptors per input topic")
                    .containsOnlyKeys(all)
                    .containsEntry("fleet.lidar", 200L);
            for (String topic : all) {
                assertThat(PipelineOutput.read(KAFKA, topic + ".descriptors", base).descriptors)
                        .as("the descriptors in %s.descriptors", topic)
                        .isNotEmpty()
                        .allMatch(row -> row.sourceTopic().equals(topic));
            }
            assertThat(KAFKA.drainCommitted("fleet-dead-letters"))
                    .as("dead letters")
                    .isEmpty();
            for (String topic : all) {
                Set<Integer> ofTopic = IntStream.range(0, workload.count())
                        .filter(i -> (i < 300 ? first.get(i % first.size()) : all.get(i % all.size())).equals(topic))
                        .boxed()
                        .collect(Collectors.toSet());
                LanceDatasetRows.assertOneRowPerInput(
                        workload,
                        ofTopic,
                        dir.resolve("lance").resolve(topic + ".lance").toString(),
                        Map.of());
            }
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(job, resumed);
            throw e;
        } finally {
            ChildProcess.destroyAll(job, resumed);
        }
    }

    /**
     * {@code --input-topic a,b --start-from timestamp:T} on a first start reads, of both topics, only
     * the records at or after T.
     */
    @Test
    void severalNamedTopicsStartFromATimestamp() throws Exception {
        TestWorkload workload = new TestWorkload(62, 400);
        List<String> topics = List.of("site-a.frames", "site-b.frames");
        for (String topic : topics) {
            KAFKA.createTopic(topic, PARTITIONS);
        }
        KAFKA.createTopic("site-descriptors", 1);
        KAFKA.createTopic("site-dead-letters", 1);
        workload.send(KAFKA, i -> topics.get(i % 2), PARTITIONS, 0, workload.count());
        long start = workload.timestamp(200);
        Path base = dir.resolve("base");

        RunResult run = TestEnvironment.runArguments(
                        KAFKA, String.join(",", topics), "site-descriptors", "site-dead-letters", base)
                .groupId("sites")
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .add("--start-from", "timestamp:" + start)
                .bounded()
                .run();

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("blob-ingest: site-a.frames, site-b.frames -> ");
        PipelineOutput output = PipelineOutput.read(KAFKA, "site-descriptors", base);
        output.assertExactlyOnceAndByteExact(workload, indices(200, workload.count()));
        assertThat(sourceTopics(output)).containsOnlyKeys(topics);
    }

    private static Set<Integer> indices(int from, int to) {
        return IntStream.range(from, to).boxed().collect(Collectors.toSet());
    }

    private static boolean deliveredFrom(String topic, Path base) {
        return descriptors(List.of(topic + ".descriptors"), base).stream()
                .anyMatch(row -> row.sourceTopic().equals(topic));
    }

    /** The committed descriptors in those of {@code descriptorTopics} the job has created so far. */
    private static List<DescriptorRow> descriptors(List<String> descriptorTopics, Path base) {
        try {
            List<String> existing = KAFKA.topics();
            return PipelineOutput.read(
                            KAFKA,
                            descriptorTopics.stream().filter(existing::contains).toList(),
                            base)
                    .descriptors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Long> sourceTopics(PipelineOutput output) {
        return output.descriptors.stream()
                .collect(Collectors.groupingBy(DescriptorRow::sourceTopic, Collectors.counting()));
    }
}
