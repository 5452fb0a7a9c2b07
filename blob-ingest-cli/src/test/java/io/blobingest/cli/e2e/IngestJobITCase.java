package io.blobingest.cli.e2e;

import static io.blobingest.cli.e2e.TestEnvironment.runCli;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline through the {@code run} command: a real Kafka broker, Flink's MiniCluster,
 * local storage; 10,000 records of mixed sizes, read back through the Object Layer.
 */
class IngestJobITCase {

    static final int PARTITIONS = 2;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    @Test
    void everyInputBecomesExactlyOneCommittedDescriptorThatReadsBackByteExact() throws Exception {
        TestWorkload workload = new TestWorkload(42, 10_000);
        produce(workload, "blobs");
        KAFKA.createTopic("descriptors", 1);
        KAFKA.createTopic("dead-letters", 1);
        Path base = dir.resolve("base");

        RunResult run = TestEnvironment.runArguments(KAFKA, "blobs", "descriptors", "dead-letters", base)
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .bounded()
                .run();

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("run summary: " + workload.count() + " descriptors", "dead letters 0");
        PipelineOutput output = PipelineOutput.read(KAFKA, "descriptors", base);
        Set<Integer> all = IntStream.range(0, workload.count()).boxed().collect(Collectors.toSet());
        output.assertExactlyOnceAndByteExact(workload, all);
        assertThat(KAFKA.drainCommitted("dead-letters")).isEmpty();

        RunResult verify = runCli("pack", "verify", base.toString());
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).contains(" 0 faults");
    }

    static void produce(TestWorkload workload, String topic) throws Exception {
        KAFKA.createTopic(topic, PARTITIONS);
        workload.send(KAFKA, topic, PARTITIONS, 0, workload.count());
    }
}
