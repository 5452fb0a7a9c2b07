package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BoundedRunOffsetsTest {

    @Test
    void fixedStoppingOffsetsTravelInTheConfigurationByTopicAndPartition() {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("cam-front", 0), 200L);
        offsets.put(new TopicPartition("cam-front", 1), 0L);
        offsets.put(new TopicPartition("robots.lidar_2", 0), 9_000_000_000L);
        Configuration config = new Configuration();
        config.set(BoundedRunOffsets.STOPPING_OFFSETS, BoundedRunOffsets.encode(offsets));

        assertThat(config.get(BoundedRunOffsets.STOPPING_OFFSETS))
                .isEqualTo("cam-front:0:200,cam-front:1:0,robots.lidar_2:0:9000000000");
        assertThat(BoundedRunOffsets.fixed(config)).containsExactlyEntriesOf(offsets);
    }

    @Test
    void withoutFixedOffsetsNothingIsFixedAndTheGroupIsLeftAlone() throws InterruptedException {
        Configuration config = new Configuration();

        assertThat(BoundedRunOffsets.fixed(config)).isEmpty();
        assertThat(BoundedRunOffsets.advanceGroup(config)).isEmpty();
    }

    @Test
    void aMalformedEntryNamesTheKeyAndTheEntry() {
        Configuration config = new Configuration();
        config.set(BoundedRunOffsets.STOPPING_OFFSETS, "in:0:12,in:3");

        assertThatThrownBy(() -> BoundedRunOffsets.fixed(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("$internal.blob-ingest.kafka.stopping-offsets: expected <topic>:<partition>:<offset>,"
                        + " found 'in:3'");
    }
}
