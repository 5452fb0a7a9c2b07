package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both jobs enable object reuse on the environment they are built into (their javadoc says so):
 * every operator of theirs emits new objects and never changes its input.
 */
class ObjectReuseTest {

    @TempDir
    Path dir;

    @Test
    void buildingTheIngestJobEnablesObjectReuseOnTheEnvironment() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

        IngestJob.build(env, config());

        assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
    }

    @Test
    void buildingTheBackfillEnablesObjectReuseAsTheIngestJobDoes() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

        BackfillJob.build(
                env,
                config(),
                new org.apache.flink.core.fs.Path(
                        dir.resolve("old/_descriptors").toUri()));

        assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
    }

    private Configuration config() {
        return Configuration.fromMap(Map.of(
                "kafka.bootstrap-servers", "localhost:9092",
                "kafka.input-topic", "blobs",
                "kafka.descriptor-topic", "descriptors",
                "kafka.dead-letter-topic", "dead-letters",
                "kafka.group-id", "object-reuse-test",
                "execution.checkpointing.interval", "10 s",
                "sink.raw-pack.base-path", dir.resolve("base").toUri().toString()));
    }
}
