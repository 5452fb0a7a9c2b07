package io.blobingest.kafka.internal;

import io.blobingest.kafka.BlobKafkaOptions;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.util.TimeUtils;

/**
 * The start-up check of the sinks' transaction timeout. A transaction opened after one checkpoint
 * is committed when the next one completes, or by the restart after a failure; if the broker
 * aborts it first, its records are lost. And a broker refuses a timeout above its own maximum.
 */
public final class TransactionTimeouts {

    private TransactionTimeouts() {}

    /**
     * Requires {@code checkpointInterval + restartAllowance < transactionTimeout <= brokerMaxTimeout}.
     *
     * @param checkpointInterval empty when checkpointing is off
     * @throws IllegalConfigurationException naming the options involved and their values
     */
    public static void validate(Duration transactionTimeout, Duration brokerMaxTimeout,
            Optional<Duration> checkpointInterval, Duration restartAllowance) {
        requirePositive(BlobKafkaOptions.TRANSACTION_TIMEOUT.key(), transactionTimeout);
        requirePositive(BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT.key(), brokerMaxTimeout);
        if (restartAllowance.isNegative()) {
            throw new IllegalConfigurationException(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE.key()
                    + " must not be negative, found " + format(restartAllowance));
        }
        if (transactionTimeout.compareTo(brokerMaxTimeout) > 0) {
            throw new IllegalConfigurationException(BlobKafkaOptions.TRANSACTION_TIMEOUT.key() + " ("
                    + format(transactionTimeout) + ") exceeds the brokers' transaction.max.timeout.ms ("
                    + format(brokerMaxTimeout) + ", " + BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT.key()
                    + "): the brokers would refuse every transaction. Lower the timeout or raise the brokers' limit.");
        }
        Duration interval = checkpointInterval.filter(d -> !d.isZero() && !d.isNegative())
                .orElseThrow(() -> new IllegalConfigurationException("exactly-once Kafka sinks commit on checkpoints, "
                        + "but checkpointing is off: set " + CheckpointingOptions.CHECKPOINTING_INTERVAL.key()));
        Duration needed = interval.plus(restartAllowance);
        if (transactionTimeout.compareTo(needed) <= 0) {
            throw new IllegalConfigurationException(BlobKafkaOptions.TRANSACTION_TIMEOUT.key() + " ("
                    + format(transactionTimeout) + ") must exceed " + CheckpointingOptions.CHECKPOINTING_INTERVAL.key()
                    + " (" + format(interval) + ") + " + BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE.key() + " ("
                    + format(restartAllowance) + ") = " + format(needed)
                    + ": a transaction must outlive a checkpoint interval, a failure and the restart that commits it.");
        }
    }

    private static void requirePositive(String option, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalConfigurationException(option + " must be positive, found " + format(value));
        }
    }

    private static String format(Duration duration) {
        return duration.isNegative() ? "-" + TimeUtils.formatWithHighestUnit(duration.negated())
                : TimeUtils.formatWithHighestUnit(duration);
    }
}
