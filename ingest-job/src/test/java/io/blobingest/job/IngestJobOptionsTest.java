package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

class IngestJobOptionsTest {

    @Test
    void theLargestBlobAcceptedIsPlacementMaxBlobSize() {
        Configuration config = Configuration.fromMap(Map.of("placement.max-blob-size", "1mb"));

        assertThat(config.get(IngestJobOptions.MAX_BLOB_SIZE)).isEqualTo(MemorySize.parse("1mb"));
        assertThat(new Configuration().get(IngestJobOptions.MAX_BLOB_SIZE)).isEqualTo(MemorySize.parse("16gb"));
    }

    @Test
    void theDeprecatedKeyExternalMaxBytesStillSetsItUnlessTheNewKeyIsGiven() {
        assertThat(Configuration.fromMap(Map.of("external.max-bytes", "2mb")).get(IngestJobOptions.MAX_BLOB_SIZE))
                .isEqualTo(MemorySize.parse("2mb"));
        assertThat(Configuration.fromMap(Map.of("external.max-bytes", "2mb", "placement.max-blob-size", "3mb"))
                        .get(IngestJobOptions.MAX_BLOB_SIZE))
                .isEqualTo(MemorySize.parse("3mb"));
    }
}
