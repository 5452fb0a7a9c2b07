package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.kafka.BlobKafkaOptions;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class TransactionTimeoutsTest {

    /** 1 min interval, 2 min checkpoint timeout, no pause, no tolerated failure, 5 min allowance: 8 min needed. */
    private static Configuration config(Duration transactionTimeout) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.TRANSACTION_TIMEOUT, transactionTimeout);
        config.set(BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT, Duration.ofMinutes(15));
        config.set(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE, Duration.ofMinutes(5));
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(1));
        config.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMinutes(2));
        return config;
    }

    @Test
    void acceptsATimeoutBetweenTheWorstCaseOpenTimeAndTheBrokerMaximum() {
        assertThatCode(() -> TransactionTimeouts.validate(config(Duration.ofMinutes(9))))
                .doesNotThrowAnyException();
        assertThatCode(() -> TransactionTimeouts.validate(config(Duration.ofMinutes(15))))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesATimeoutAboveTheBrokerMaximum() {
        assertThatThrownBy(() -> TransactionTimeouts.validate(config(Duration.ofMinutes(16))))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageStartingWith("kafka.transaction-timeout (16 min) exceeds the brokers' "
                        + "transaction.max.timeout.ms (15 min, kafka.broker-transaction-max-timeout)");
    }

    @Test
    void theErrorNamesEveryTermOfTheWorstCaseWithItsValue() {
        Configuration config = config(Duration.ofMinutes(10));
        config.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 1);
        config.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofSeconds(30));

        assertThatThrownBy(() -> TransactionTimeouts.validate(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageStartingWith("kafka.transaction-timeout (10 min) must exceed ("
                        + "execution.checkpointing.tolerable-failed-checkpoints (1) + 1) * ("
                        + "execution.checkpointing.interval (1 min) + execution.checkpointing.min-pause (30 s) + "
                        + "execution.checkpointing.timeout (2 min)) + kafka.transaction-restart-allowance (5 min) "
                        + "= 12 min: ");
    }

    @Test
    void aCheckpointThatRunsToItsTimeoutCountsOncePerToleratedFailure() {
        Configuration noneTolerated = config(Duration.ofMinutes(9));
        Configuration twoTolerated = config(Duration.ofMinutes(9));
        twoTolerated.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 2);

        assertThatCode(() -> TransactionTimeouts.validate(noneTolerated)).doesNotThrowAnyException();
        // 3 * (1 min + 2 min) + 5 min = 14 min
        assertThatThrownBy(() -> TransactionTimeouts.validate(twoTolerated)).hasMessageContaining("= 14 min: ");
    }

    @Test
    void theMinimumPauseCountsOncePerAttempt() {
        Configuration config = config(Duration.ofMinutes(9));
        config.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofMinutes(1));

        // (1 min + 1 min + 2 min) + 5 min = 9 min, not below the timeout
        assertThatThrownBy(() -> TransactionTimeouts.validate(config)).hasMessageContaining("= 9 min: ");
    }

    @Test
    void flinksDefaultCheckpointTimeoutCountsWhenNoneIsSet() {
        Configuration config = config(Duration.ofMinutes(10));
        config.removeConfig(CheckpointingOptions.CHECKPOINTING_TIMEOUT);

        assertThatThrownBy(() -> TransactionTimeouts.validate(config))
                .hasMessageContaining("execution.checkpointing.timeout (10 min)");
    }

    @Test
    void theDefaultsAcceptCheckpointIntervalsBelowTwoMinutes() {
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(119));
        assertThatCode(() -> TransactionTimeouts.validate(config)).doesNotThrowAnyException();

        // (0 + 1) * (2 min + 0 + 10 min) + 3 min = 15 min, the default transaction timeout
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(2));
        assertThatThrownBy(() -> TransactionTimeouts.validate(config)).hasMessageContaining("= 15 min: ");
    }

    @Test
    void refusesExactlyOnceWithoutCheckpointing() {
        Configuration config = config(Duration.ofMinutes(10));
        config.removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL);

        assertThatThrownBy(() -> TransactionTimeouts.validate(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("exactly-once Kafka sinks commit on checkpoints, but checkpointing is off: "
                        + "set execution.checkpointing.interval");
    }

    @Test
    void aZeroIntervalMeansCheckpointingIsOff() {
        Configuration config = config(Duration.ofMinutes(10));
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ZERO);

        assertThatThrownBy(() -> TransactionTimeouts.validate(config)).hasMessageContaining("checkpointing is off");
    }

    @Test
    void refusesNonPositiveTimeoutsAndNegativeAllowancesOrCounts() {
        Configuration zeroTimeout = config(Duration.ZERO);
        assertThatThrownBy(() -> TransactionTimeouts.validate(zeroTimeout))
                .hasMessage("kafka.transaction-timeout must be positive, found 0 ms");
        Configuration negativeBroker = config(Duration.ofMinutes(1));
        negativeBroker.set(BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT, Duration.ofSeconds(-1));
        assertThatThrownBy(() -> TransactionTimeouts.validate(negativeBroker))
                .hasMessage("kafka.broker-transaction-max-timeout must be positive, found -1 s");
        Configuration negativeAllowance = config(Duration.ofMinutes(1));
        negativeAllowance.set(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE, Duration.ofSeconds(-5));
        assertThatThrownBy(() -> TransactionTimeouts.validate(negativeAllowance))
                .hasMessage("kafka.transaction-restart-allowance must not be negative, found -5 s");
        Configuration negativePause = config(Duration.ofMinutes(10));
        negativePause.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofSeconds(-1));
        assertThatThrownBy(() -> TransactionTimeouts.validate(negativePause))
                .hasMessage("execution.checkpointing.min-pause must not be negative, found -1 s");
        Configuration negativeFailures = config(Duration.ofMinutes(10));
        negativeFailures.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, -1);
        assertThatThrownBy(() -> TransactionTimeouts.validate(negativeFailures))
                .hasMessage("execution.checkpointing.tolerable-failed-checkpoints must not be negative, found -1");
    }
}
