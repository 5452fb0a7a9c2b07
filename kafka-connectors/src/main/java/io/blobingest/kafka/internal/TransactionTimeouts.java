package io.blobingest.kafka.internal;

import io.blobingest.kafka.BlobKafkaOptions;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;

/**
 * The start-up check of the sinks' transaction timeout. A transaction opened after checkpoint N-1
 * is committed when the next checkpoint that completes is notified, or by the restart after a
 * failure; if the broker aborts it first, its records are lost. And a broker refuses a timeout above
 * its own maximum.
 *
 * <p>How long a transaction may stay open, in the worst case Flink still calls normal: the
 * checkpoint coordinator triggers the next checkpoint at most one interval after the last trigger
 * and not before the minimum pause after the last checkpoint ended; a checkpoint may run for the
 * checkpoint timeout before it is declared failed; and that many failed checkpoints in a row (the
 * tolerable ones) plus the one that completes all pass while the same transaction is open. After
 * that, the completed checkpoint's notification still has to reach the task (behind whatever the
 * task is doing), or, if the job fails, the restart that commits it has to happen: the restart
 * allowance.
 */
@Internal
public final class TransactionTimeouts {

    private TransactionTimeouts() {}

    /**
     * Requires {@code (tolerable failed checkpoints + 1) * (interval + min pause + checkpoint
     * timeout) + restart allowance < transaction timeout <= broker max timeout}.
     *
     * @throws IllegalConfigurationException naming every option involved and its value
     */
    public static void validate(ReadableConfig config) {
        Duration transactionTimeout = config.get(BlobKafkaOptions.TRANSACTION_TIMEOUT);
        Duration brokerMaxTimeout = config.get(BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT);
        Duration restartAllowance = config.get(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE);
        requirePositive(BlobKafkaOptions.TRANSACTION_TIMEOUT.key(), transactionTimeout);
        requirePositive(BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT.key(), brokerMaxTimeout);
        requireNotNegative(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE.key(), restartAllowance);
        if (transactionTimeout.compareTo(brokerMaxTimeout) > 0) {
            throw new IllegalConfigurationException(BlobKafkaOptions.TRANSACTION_TIMEOUT.key() + " ("
                    + format(transactionTimeout) + ") exceeds the brokers' transaction.max.timeout.ms ("
                    + format(brokerMaxTimeout) + ", " + BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT.key()
                    + "): the brokers would refuse every transaction. Lower the timeout or raise the brokers' limit.");
        }
        Duration interval = config.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)
                .filter(d -> !d.isZero() && !d.isNegative())
                .orElseThrow(() -> new IllegalConfigurationException("exactly-once Kafka sinks commit on checkpoints, "
                        + "but checkpointing is off: set " + CheckpointingOptions.CHECKPOINTING_INTERVAL.key()));
        Duration checkpointTimeout = config.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT);
        Duration minPause = config.get(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS);
        int tolerableFailures = config.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER);
        requirePositive(CheckpointingOptions.CHECKPOINTING_TIMEOUT.key(), checkpointTimeout);
        requireNotNegative(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS.key(), minPause);
        if (tolerableFailures < 0) {
            throw new IllegalConfigurationException(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER.key()
                    + " must not be negative, found " + tolerableFailures);
        }
        Duration needed = interval.plus(minPause)
                .plus(checkpointTimeout)
                .multipliedBy(tolerableFailures + 1L)
                .plus(restartAllowance);
        if (transactionTimeout.compareTo(needed) <= 0) {
            throw new IllegalConfigurationException(BlobKafkaOptions.TRANSACTION_TIMEOUT.key() + " ("
                    + format(transactionTimeout) + ") must exceed ("
                    + CheckpointingOptions.TOLERABLE_FAILURE_NUMBER.key() + " (" + tolerableFailures + ") + 1) * ("
                    + CheckpointingOptions.CHECKPOINTING_INTERVAL.key() + " (" + format(interval) + ") + "
                    + CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS.key() + " (" + format(minPause) + ") + "
                    + CheckpointingOptions.CHECKPOINTING_TIMEOUT.key() + " (" + format(checkpointTimeout) + ")) + "
                    + BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE.key() + " (" + format(restartAllowance)
                    + ") = " + format(needed) + ": a transaction stays open until the next checkpoint that "
                    + "completes, after every failed one Flink tolerates, and then until that checkpoint's "
                    + "notification or the restart after a failure commits it. Raise the timeout (and the "
                    + "brokers' limit) or lower the checkpointing settings.");
        }
    }

    private static void requirePositive(String option, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalConfigurationException(option + " must be positive, found " + format(value));
        }
    }

    private static void requireNotNegative(String option, Duration value) {
        if (value.isNegative()) {
            throw new IllegalConfigurationException(option + " must not be negative, found " + format(value));
        }
    }

    private static String format(Duration duration) {
        return duration.isNegative()
                ? "-" + TimeUtils.formatWithHighestUnit(duration.negated())
                : TimeUtils.formatWithHighestUnit(duration);
    }
}
