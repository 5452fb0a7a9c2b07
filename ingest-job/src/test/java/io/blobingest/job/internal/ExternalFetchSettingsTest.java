package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.job.IngestJobOptions;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.storage.RetryPolicy;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExternalFetchSettingsTest {

    @Test
    void defaultsAreFourFetchesThreeTriesOneSecondBackoffTwoMinuteTimeout() {
        ExternalFetchSettings settings = ExternalFetchSettings.fromConfig(new Configuration());

        assertThat(settings)
                .isEqualTo(
                        new ExternalFetchSettings(4, new RetryPolicy(3, Duration.ofSeconds(1)), Duration.ofMinutes(2)));
    }

    @ParameterizedTest
    @CsvSource({
        "external.fetch-concurrency, 0, 'external.fetch-concurrency must be >= 1, found 0'",
        "external.fetch-attempts, 0, 'external.fetch-attempts must be >= 1, found 0'",
        "external.fetch-timeout, 0 s, 'external.fetch-timeout must be positive, found PT0S'",
    })
    void anInvalidValueIsRefusedNamingItsOption(String key, String value, String message) {
        Configuration config = new Configuration();
        config.setString(key, value);

        assertThatThrownBy(() -> ExternalFetchSettings.fromConfig(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void aNegativeBackoffSetInCodeIsRefusedNamingItsOption() {
        Configuration config = new Configuration();
        config.set(IngestJobOptions.EXTERNAL_FETCH_BACKOFF, Duration.ofMillis(-1));

        assertThatThrownBy(() -> ExternalFetchSettings.fromConfig(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("external.fetch-backoff must be >= 0, found PT-0.001S");
    }

    /**
     * Each copy was below the checkpoint timeout, but a barrier queued behind
     * the copies of every completed fetch could still wait for all of them.
     */
    @Test
    void copiesOfEveryFetchInFlightMustFitInTheCheckpointTimeout() {
        Configuration config = new Configuration();
        config.set(IngestJobOptions.EXTERNAL_FETCH_CONCURRENCY, 4);
        config.set(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT, Duration.ofMinutes(3));

        assertThatThrownBy(() -> ExternalFetchSettings.fromConfig(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("external.fetch-concurrency (4) x sink.raw-pack.external-copy-timeout (3 min) "
                        + "= 12 min must be shorter than execution.checkpointing.timeout (10 min)");

        config.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMinutes(13));
        assertThat(ExternalFetchSettings.fromConfig(config).concurrency()).isEqualTo(4);
    }
}
