package io.blobingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

class RawPackSinkBuilderTest {

    @Test
    void optionsAreReadFromAFlinkConfigurationWithTheirDocumentedSpelling() {
        Configuration config = Configuration.fromMap(Map.of(
                "sink.raw-pack.base-path", "s3://bucket/blobs",
                "sink.raw-pack.pack-target-size", "256mb",
                "sink.raw-pack.roll-policy", "size-or-time",
                "sink.raw-pack.roll-interval", "90 s",
                "sink.raw-pack.created-by", "ingest-7"));

        RawPackSinkBuilder builder = RawPackSink.builder().setConfiguration(config);

        assertThat(config.get(RawPackSinkOptions.ROLL_POLICY)).isEqualTo(RollPolicy.SIZE_OR_TIME);
        assertThat(config.get(RawPackSinkOptions.PACK_TARGET_SIZE)).isEqualTo(MemorySize.ofMebiBytes(256));
        assertThat(config.get(RawPackSinkOptions.ROLL_INTERVAL)).isEqualTo(Duration.ofSeconds(90));
        assertThat(builder.build()).isNotNull();
    }

    @Test
    void exactSharingIsReadWithItsDocumentedSpellingAndOffByDefault() {
        Configuration config = Configuration.fromMap(
                Map.of("sink.raw-pack.exact-sharing", "within-job", "sink.raw-pack.exact-sharing.index-size", "5000"));

        assertThat(config.get(RawPackSinkOptions.EXACT_SHARING)).isEqualTo(ExactSharing.WITHIN_JOB);
        assertThat(config.get(RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE)).isEqualTo(5000);
        assertThat(new Configuration().get(RawPackSinkOptions.EXACT_SHARING)).isEqualTo(ExactSharing.OFF);
        assertThatThrownBy(() -> RawPackSink.builder()
                        .setBasePath("/data")
                        .setConfiguration(Configuration.fromMap(Map.of("sink.raw-pack.exact-sharing.index-size", "0")))
                        .build())
                .hasMessage("sink.raw-pack.exact-sharing.index-size must be positive, found 0");
    }

    @Test
    void defaultsAreOnCheckpointAndOneGibibytePacks() {
        Configuration empty = new Configuration();
        assertThat(empty.get(RawPackSinkOptions.ROLL_POLICY)).isEqualTo(RollPolicy.ON_CHECKPOINT);
        assertThat(empty.get(RawPackSinkOptions.PACK_TARGET_SIZE)).isEqualTo(MemorySize.parse("1gb"));
        assertThat(RollPolicy.ON_CHECKPOINT).hasToString("on-checkpoint");
    }

    @Test
    void basePathIsRequiredAndAbsolute() {
        assertThatThrownBy(() -> RawPackSink.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sink.raw-pack.base-path is required");
        assertThatThrownBy(
                        () -> RawPackSink.builder().setBasePath("relative/dir").build())
                .hasMessage("sink.raw-pack.base-path must be absolute, found \"relative/dir\"");
    }

    @Test
    void packTargetSizeMustStayWithinTheRawPackLimit() {
        assertThatThrownBy(() -> RawPackSink.builder()
                        .setBasePath("/data")
                        .setPackTargetSize(MemorySize.parse("2gb"))
                        .build())
                .hasMessage("sink.raw-pack.pack-target-size must be between 64 kb and 1 gb, found 2 gb");
        assertThatThrownBy(() -> RawPackSink.builder()
                        .setBasePath("/data")
                        .setPackTargetSize(MemorySize.parse("1kb"))
                        .build())
                .hasMessageContaining("found 1 kb");
    }

    @Test
    void rollIntervalMustBePositive() {
        assertThatThrownBy(() -> RawPackSink.builder()
                        .setBasePath("/data")
                        .setRollInterval(Duration.ZERO)
                        .build())
                .hasMessage("sink.raw-pack.roll-interval must be positive, found PT0S");
    }

    @Test
    void aCreatedByThePackMetadataWouldRefuseIsRefusedAtBuildTime() {
        for (String refused : List.of("blob-ingest/\u00e9", "ingest\t7", "x".repeat(257), "")) {
            assertThatThrownBy(() -> RawPackSink.builder()
                            .setBasePath("/data")
                            .setCreatedBy(refused)
                            .build())
                    .as("created-by \"%s\"", refused)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("sink.raw-pack.created-by must be 1 to 256 printable ASCII characters");
        }
        assertThat(RawPackSink.builder()
                        .setBasePath("/data")
                        .setCreatedBy("blob-ingest/0.1.0 (robot-7)")
                        .build())
                .isNotNull();
    }
}
