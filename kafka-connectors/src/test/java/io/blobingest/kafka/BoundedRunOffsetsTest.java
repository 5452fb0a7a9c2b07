package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class BoundedRunOffsetsTest {

    @Test
    void fixedStoppingOffsetsTravelInTheConfigurationByPartition() {
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        offsets.put(0, 200L);
        offsets.put(1, 0L);
        offsets.put(2, 9_000_000_000L);
        Configuration config = new Configuration();
        config.set(BoundedRunOffsets.STOPPING_OFFSETS, BoundedRunOffsets.encode(offsets));

        assertThat(config.get(BoundedRunOffsets.STOPPING_OFFSETS)).isEqualTo("0:200,1:0,2:9000000000");
        assertThat(BoundedRunOffsets.fixed(config)).containsExactlyEntriesOf(offsets);
    }

    @Test
    void withoutFixedOffsetsNothingIsFixedAndTheGroupIsLeftAlone() throws InterruptedException {
        Configuration config = new Configuration();

        assertThat(BoundedRunOffsets.fixed(config)).isEmpty();
        assertThat(BoundedRunOffsets.advanceGroup(config)).isEmpty();
    }

    @Test
    void aMalformedPairNamesTheKeyAndThePair() {
        Configuration config = new Configuration();
        config.set(BoundedRunOffsets.STOPPING_OFFSETS, "0:12,3");

        assertThatThrownBy(() -> BoundedRunOffsets.fixed(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("$internal.blob-ingest.kafka.stopping-offsets: expected <partition>:<offset>, found '3'");
    }
}
