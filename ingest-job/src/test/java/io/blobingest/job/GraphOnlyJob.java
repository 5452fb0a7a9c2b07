package io.blobingest.job;

import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSinkOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** {@link IngestJob} built into an environment and never run: for tests of the graph Flink makes of it. */
final class GraphOnlyJob {

    private GraphOnlyJob() {}

    static StreamExecutionEnvironment build(Path base, ExactSharing sharing) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, "localhost:9092"); // never contacted
        config.set(BlobKafkaOptions.INPUT_TOPIC, "blobs");
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, "descriptors");
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, "dead-letters");
        config.set(BlobKafkaOptions.GROUP_ID, "graph-only");
        config.set(RawPackSinkOptions.BASE_PATH, base.toUri().toString());
        config.set(RawPackSinkOptions.EXACT_SHARING, sharing);
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(10));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config);
        return env;
    }
}
