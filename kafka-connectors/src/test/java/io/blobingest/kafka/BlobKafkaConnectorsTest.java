package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class BlobKafkaConnectorsTest {

    private static Configuration validConfig() {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, "localhost:9092");
        config.set(BlobKafkaOptions.INPUT_TOPIC, "blobs");
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, "descriptors");
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, "dead-letters");
        config.set(BlobKafkaOptions.GROUP_ID, "ingest-job-1");
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(1));
        return config;
    }

    @Test
    void theDescriptorRecordLimitFollowsTheProducerPropertiesOfKafkaProperties() {
        assertThat(BlobKafkaConnectors.fromConfig(validConfig())
                        .descriptorRecordLimit()
                        .maxRecordBytes())
                .as("Kafka's default max.request.size")
                .isEqualTo(1024 * 1024);

        Configuration config = validConfig();
        config.set(BlobKafkaOptions.CLIENT_PROPERTIES, Map.of("max.request.size", "4194304"));
        assertThat(BlobKafkaConnectors.fromConfig(config)
                        .descriptorRecordLimit()
                        .maxRecordBytes())
                .isEqualTo(4 * 1024 * 1024);
    }

    @Test
    void theDeadLetterProducersBufferMemoryHoldsItsLargestRecord() {
        Properties byDefault = BlobKafkaConnectors.fromConfig(validConfig()).deadLetterProducerProperties();
        assertThat(byDefault.getProperty("max.request.size")).isEqualTo(Long.toString(64L << 20));
        assertThat(byDefault.getProperty("buffer.memory"))
                .as("raised from Kafka's 32 MiB")
                .isEqualTo(Long.toString(64L << 20));

        Configuration config = validConfig();
        config.set(BlobKafkaOptions.CLIENT_PROPERTIES, Map.of("buffer.memory", Long.toString(256L << 20)));
        assertThat(BlobKafkaConnectors.fromConfig(config)
                        .deadLetterProducerProperties()
                        .getProperty("buffer.memory"))
                .as("a larger configured buffer is kept")
                .isEqualTo(Long.toString(256L << 20));
    }

    @Test
    void eachSinkGetsItsOwnTransactionalIdPrefixDerivedFromTheGroupByDefault() {
        BlobKafkaConnectors connectors = BlobKafkaConnectors.fromConfig(validConfig());

        assertThat(connectors.descriptorTransactionalIdPrefix()).isEqualTo("ingest-job-1-descriptors");
        assertThat(connectors.deadLetterTransactionalIdPrefix()).isEqualTo("ingest-job-1-dead-letters");
    }

    @Test
    void anExplicitTransactionalIdPrefixWins() {
        Configuration config = validConfig();
        config.set(BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX, "job-a");

        BlobKafkaConnectors connectors = BlobKafkaConnectors.fromConfig(config);

        assertThat(connectors.descriptorTransactionalIdPrefix()).isEqualTo("job-a-descriptors");
        assertThat(connectors.deadLetterTransactionalIdPrefix()).isEqualTo("job-a-dead-letters");
    }

    @Test
    void sinksAloneNeedNoInputTopicButATransactionalIdPrefixOrGroup() {
        Configuration config = validConfig();
        config.removeConfig(BlobKafkaOptions.INPUT_TOPIC);
        config.removeConfig(BlobKafkaOptions.GROUP_ID);
        assertThatThrownBy(() -> BlobKafkaConnectors.sinksFromConfig(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("missing option kafka.transactional-id-prefix");

        config.set(BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX, "backfill-a");
        BlobKafkaConnectors connectors = BlobKafkaConnectors.sinksFromConfig(config);

        assertThat(connectors.passedThroughTransactionalIdPrefix()).isEqualTo("backfill-a-passed-through");
        assertThat(connectors.descriptorTransactionalIdPrefix()).isEqualTo("backfill-a-descriptors");
        assertThat(connectors.passedThroughDescriptorSink()).isNotNull();
        assertThatThrownBy(connectors::source).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theSourceIsUnboundedUnlessBoundedModeIsOn() {
        assertThat(BlobKafkaConnectors.fromConfig(validConfig()).source().getBoundedness())
                .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);

        Configuration config = validConfig();
        config.set(BlobKafkaOptions.BOUNDED, true);
        assertThat(BlobKafkaConnectors.fromConfig(config).source().getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void buildsBothSinks() {
        BlobKafkaConnectors connectors = BlobKafkaConnectors.fromConfig(validConfig());

        assertThat(connectors.descriptorSink()).isNotNull();
        assertThat(connectors.deadLetterSink()).isNotNull();
    }

    @Test
    void refusesAMissingOption() {
        Configuration config = validConfig();
        config.removeConfig(BlobKafkaOptions.DEAD_LETTER_TOPIC);

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("missing option kafka.dead-letter-topic");
    }

    @Test
    void refusesABlankOption() {
        Configuration config = validConfig();
        config.set(BlobKafkaOptions.GROUP_ID, " ");

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                .hasMessage("option kafka.group-id must not be blank");
    }

    @Test
    void refusesSharedTopics() {
        Configuration config = validConfig();
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, "descriptors");

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                .hasMessage("the input, descriptor and dead-letter topics must differ, found blobs; descriptors;"
                        + " descriptors");
    }

    @Test
    void refusesInputTopicsThatTakeInTheJobsOwnOutput() {
        Configuration named = validConfig();
        named.set(BlobKafkaOptions.INPUT_TOPIC, "blobs,dead-letters");
        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(named))
                .hasMessage("the input, descriptor and dead-letter topics must differ, found blobs, dead-letters;"
                        + " descriptors; dead-letters");

        Configuration pattern = validConfig();
        pattern.removeConfig(BlobKafkaOptions.INPUT_TOPIC);
        pattern.set(BlobKafkaOptions.INPUT_TOPIC_PATTERN, "de.*");
        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(pattern))
                .hasMessage("the input, descriptor and dead-letter topics must differ, found topics matching 'de.*';"
                        + " descriptors; dead-letters");

        pattern.set(BlobKafkaOptions.INPUT_TOPIC_PATTERN, "robots\\..*");
        pattern.set(BlobKafkaOptions.LINEAGE_TOPIC, "robots.lineage");
        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(pattern))
                .hasMessageStartingWith("kafka.lineage-topic must differ from the input");
    }

    private static Configuration perInputTopicDescriptors() {
        Configuration config = validConfig();
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, "{topic}.descriptors");
        return config;
    }

    @Test
    void refusesADescriptorTopicPerInputTopicThatWouldBeAnInputOrAnotherOutput() {
        Configuration named = perInputTopicDescriptors();
        named.set(BlobKafkaOptions.INPUT_TOPIC, "cam,cam.descriptors");
        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(named))
                .hasMessage("the input, descriptor and dead-letter topics must differ, found cam, cam.descriptors;"
                        + " {topic}.descriptors; dead-letters");

        Configuration deadLetters = perInputTopicDescriptors();
        deadLetters.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, "blobs.descriptors");
        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(deadLetters))
                .hasMessage("the input, descriptor and dead-letter topics must differ, found blobs;"
                        + " {topic}.descriptors; blobs.descriptors");

        Configuration pattern = perInputTopicDescriptors();
        pattern.removeConfig(BlobKafkaOptions.INPUT_TOPIC);
        pattern.set(BlobKafkaOptions.INPUT_TOPIC_PATTERN, "robots\\..*");
        BlobKafkaConnectors connectors = BlobKafkaConnectors.fromConfig(pattern);
        assertThat(connectors.inputTopics().orElseThrow().contains("robots.cam.descriptors"))
                .as("a pattern leaves out the job's own descriptor topics")
                .isFalse();
        assertThat(connectors.descriptorTopics().forInput("robots.cam")).isEqualTo("robots.cam.descriptors");
    }

    @Test
    void startsWhereStartFromSaysAndRefusesAnythingElse() {
        for (String startFrom : List.of("group", "earliest", "latest", "timestamp:1765000000000", " latest ")) {
            Configuration config = validConfig();
            config.set(BlobKafkaOptions.START_FROM, startFrom);
            assertThat(BlobKafkaConnectors.fromConfig(config).source())
                    .as(startFrom)
                    .isNotNull();
        }
        for (String startFrom : List.of("yesterday", "timestamp:", "timestamp:-1", "timestamp:12h", "")) {
            Configuration config = validConfig();
            config.set(BlobKafkaOptions.START_FROM, startFrom);
            assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                    .as(startFrom)
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessage("kafka.start-from must be group, earliest, latest or timestamp:<epoch ms>, found '"
                            + startFrom + "'");
        }
    }

    @Test
    void aPatternSourceIsBuiltBoundedOrNot() {
        Configuration config = validConfig();
        config.removeConfig(BlobKafkaOptions.INPUT_TOPIC);
        config.set(BlobKafkaOptions.INPUT_TOPIC_PATTERN, "robots\\..*");
        assertThat(BlobKafkaConnectors.fromConfig(config).inputTopics())
                .hasValueSatisfying(
                        topics -> assertThat(topics.contains("robots.lidar")).isTrue());
        assertThat(BlobKafkaConnectors.fromConfig(config).source().getBoundedness())
                .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        config.set(BlobKafkaOptions.BOUNDED, true);
        assertThat(BlobKafkaConnectors.fromConfig(config).source().getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void validatesTheTransactionTimeoutAtStartUp() {
        Configuration config = validConfig();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(7));

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageStartingWith("kafka.transaction-timeout (15 min) must exceed")
                .hasMessageContaining("execution.checkpointing.interval (7 min)");
    }

    @Test
    void refusesATransactionTimeoutThatTimedOutCheckpointsWouldOutlast() {
        // 1 min interval, 14 min transaction timeout: enough for an interval and the restart allowance, but
        // two checkpoints in a row may each run for the 10 min checkpoint timeout while one transaction is open.
        Configuration config = validConfig();
        config.set(BlobKafkaOptions.TRANSACTION_TIMEOUT, Duration.ofMinutes(14));
        config.set(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE, Duration.ofMinutes(1));
        config.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 1);

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("execution.checkpointing.tolerable-failed-checkpoints (1)")
                .hasMessageContaining("execution.checkpointing.timeout (10 min)")
                .hasMessageContaining("= 23 min: ");
    }

    @Test
    void refusesWithoutCheckpointing() {
        Configuration config = validConfig();
        config.removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL);

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config)).hasMessageContaining("checkpointing is off");
    }

    @Test
    void refusesClientPropertiesThatADedicatedOptionOwns() {
        Configuration config = validConfig();
        config.set(BlobKafkaOptions.CLIENT_PROPERTIES, Map.of("transaction.timeout.ms", "60000"));

        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("kafka.properties must not set 'transaction.timeout.ms': it is set by"
                        + " kafka.transaction-timeout");
    }

    @Test
    void acceptsOtherClientPropertiesInFlinksMapSyntax() {
        Configuration config = validConfig();
        config.setString("kafka.properties", "security.protocol:PLAINTEXT,client.rack:'a b=c; d:e'");

        assertThat(config.get(BlobKafkaOptions.CLIENT_PROPERTIES)).containsEntry("client.rack", "a b=c; d:e");
        assertThat(BlobKafkaConnectors.fromConfig(config).source()).isNotNull();
    }

    @Test
    void takesASecretUnderAKeyOfItsOwnAndRefusesItOnTheOneLine() {
        Configuration ownKey = validConfig();
        ownKey.setString("kafka.properties.security.protocol", "SASL_PLAINTEXT");
        ownKey.setString("kafka.properties.sasl.jaas.config", "a b=c; d:e");
        assertThat(ownKey.get(BlobKafkaOptions.CLIENT_PROPERTIES)).containsEntry("sasl.jaas.config", "a b=c; d:e");
        assertThat(BlobKafkaConnectors.fromConfig(ownKey).source()).isNotNull();

        Configuration oneLine = validConfig();
        oneLine.setString("kafka.properties", "security.protocol:SASL_PLAINTEXT,sasl.jaas.config:'a b=c; d:e'");
        assertThatThrownBy(() -> BlobKafkaConnectors.fromConfig(oneLine))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("kafka.properties.sasl.jaas.config")
                .hasMessageNotContaining("a b=c");
    }
}
