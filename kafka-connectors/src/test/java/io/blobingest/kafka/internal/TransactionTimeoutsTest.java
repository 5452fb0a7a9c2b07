package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class TransactionTimeoutsTest {

    private static final Duration BROKER_MAX = Duration.ofMinutes(15);

    @Test
    void acceptsATimeoutBetweenIntervalPlusAllowanceAndTheBrokerMaximum() {
        assertThatCode(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(10), BROKER_MAX, Optional.of(Duration.ofMinutes(1)), Duration.ofMinutes(5)))
                .doesNotThrowAnyException();
    }

    @Test
    void acceptsATimeoutEqualToTheBrokerMaximum() {
        assertThatCode(() -> TransactionTimeouts.validate(
                BROKER_MAX, BROKER_MAX, Optional.of(Duration.ofMinutes(1)), Duration.ofMinutes(5)))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesATimeoutAboveTheBrokerMaximum() {
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(16), BROKER_MAX, Optional.of(Duration.ofMinutes(1)), Duration.ofMinutes(5)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageStartingWith("kafka.transaction-timeout (16 min) exceeds the brokers' "
                        + "transaction.max.timeout.ms (15 min, kafka.broker-transaction-max-timeout)");
    }

    @Test
    void refusesATimeoutThatDoesNotOutliveIntervalPlusAllowance() {
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(10), BROKER_MAX, Optional.of(Duration.ofMinutes(6)), Duration.ofMinutes(4)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageStartingWith("kafka.transaction-timeout (10 min) must exceed execution.checkpointing.interval "
                        + "(6 min) + kafka.transaction-restart-allowance (4 min) = 10 min");
    }

    @Test
    void refusesExactlyOnceWithoutCheckpointing() {
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(10), BROKER_MAX, Optional.empty(), Duration.ofMinutes(5)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("exactly-once Kafka sinks commit on checkpoints, but checkpointing is off: "
                        + "set execution.checkpointing.interval");
    }

    @Test
    void aZeroIntervalMeansCheckpointingIsOff() {
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(10), BROKER_MAX, Optional.of(Duration.ZERO), Duration.ofMinutes(5)))
                .hasMessageContaining("checkpointing is off");
    }

    @Test
    void refusesNonPositiveTimeoutsAndNegativeAllowance() {
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ZERO, BROKER_MAX, Optional.of(Duration.ofMinutes(1)), Duration.ZERO))
                .hasMessage("kafka.transaction-timeout must be positive, found 0 ms");
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(1), Duration.ofSeconds(-1), Optional.of(Duration.ofMinutes(1)), Duration.ZERO))
                .hasMessage("kafka.broker-transaction-max-timeout must be positive, found -1 s");
        assertThatThrownBy(() -> TransactionTimeouts.validate(
                Duration.ofMinutes(1), BROKER_MAX, Optional.of(Duration.ofSeconds(1)), Duration.ofSeconds(-5)))
                .hasMessage("kafka.transaction-restart-allowance must not be negative, found -5 s");
    }
}
