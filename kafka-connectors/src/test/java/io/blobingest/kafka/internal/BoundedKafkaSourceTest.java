package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.kafka.BlobRecordDeserializationSchema;
import io.blobingest.placement.BlobRecord;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BoundedKafkaSourceTest {

    private static final TopicPartition PARTITION = new TopicPartition("blobs", 1);
    private static final List<String> TOPICS = List.of("blobs");
    private static final Properties ADMIN = new Properties();

    @Test
    @SuppressWarnings("deprecation") // LATEST_OFFSET is the marker the reader resolves
    void aSplitRestoredFromAnUnboundedRunStopsAtTheLatestOffset() {
        KafkaPartitionSplit restored = new KafkaPartitionSplit(PARTITION, 120);

        KafkaPartitionSplit bounded = BoundedKafkaSource.stoppingAtLatestIfUnbounded(restored);

        assertThat(bounded.getTopicPartition()).isEqualTo(PARTITION);
        assertThat(bounded.getStartingOffset()).isEqualTo(120);
        assertThat(bounded.getStoppingOffset()).contains(KafkaPartitionSplit.LATEST_OFFSET);
    }

    @Test
    void aSplitThatAlreadyStopsKeepsItsStoppingOffset() {
        KafkaPartitionSplit split = new KafkaPartitionSplit(PARTITION, 120, 500);

        assertThat(BoundedKafkaSource.stoppingAtLatestIfUnbounded(split)).isSameAs(split);
    }

    @Test
    void isBoundedAndRefusesAnUnboundedSource() {
        assertThat(new BoundedKafkaSource<>(
                                source().setBounded(OffsetsInitializer.latest()).build(), TOPICS, ADMIN)
                        .getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
        assertThatThrownBy(() -> new BoundedKafkaSource<>(source().build(), TOPICS, ADMIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CONTINUOUS_UNBOUNDED");
    }

    private static KafkaSourceBuilder<BlobRecord> source() {
        return KafkaSource.<BlobRecord>builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("blobs")
                .setGroupId("g")
                .setDeserializer(new BlobRecordDeserializationSchema());
    }
}
