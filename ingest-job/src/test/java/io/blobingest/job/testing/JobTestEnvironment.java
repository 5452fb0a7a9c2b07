package io.blobingest.job.testing;

import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * What the job's tests share, here and in the end-to-end module: Flink's MiniCluster as they all
 * shape it (one TaskManager, a slot per input partition) and the configuration of a bounded run of
 * the job built in the test's JVM.
 */
public final class JobTestEnvironment {

    /** Partitions of the input topic, and the job's parallelism. */
    public static final int PARTITIONS = 2;
    /** The input topic of {@link #jobConfiguration}. */
    public static final String INPUT_TOPIC = "blobs";

    private JobTestEnvironment() {}

    public static MiniClusterExtension miniCluster(int slots) {
        return miniCluster(slots, new Configuration());
    }

    public static MiniClusterExtension miniCluster(int slots, Configuration configuration) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(slots)
                .setConfiguration(configuration)
                .build());
    }

    /** A bounded run of the job on {@code kafka}'s topic {@value #INPUT_TOPIC}, 200 ms checkpoints, three restarts. */
    public static Configuration jobConfiguration(
            KafkaBrokerExtension kafka,
            String runId,
            RollPolicy policy,
            String descriptorTopic,
            String deadLetterTopic,
            Path base) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        config.set(BlobKafkaOptions.INPUT_TOPIC, INPUT_TOPIC);
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, descriptorTopic);
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, deadLetterTopic);
        config.set(BlobKafkaOptions.GROUP_ID, "failover-" + runId);
        config.set(BlobKafkaOptions.BOUNDED, true);
        config.set(RawPackSinkOptions.BASE_PATH, base.toUri().toString());
        config.set(RawPackSinkOptions.ROLL_POLICY, policy);
        // Small packs and a short interval: size-or-time then rolls by size and by time, and
        // carries open packs across checkpoints.
        config.set(RawPackSinkOptions.PACK_TARGET_SIZE, MemorySize.ofMebiBytes(6));
        config.set(RawPackSinkOptions.ROLL_INTERVAL, Duration.ofSeconds(1));
        config.set(CoreOptions.DEFAULT_PARALLELISM, PARTITIONS);
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        return config;
    }
}
