package io.blobingest.kafka.internal;

import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The descriptor sink's committer: Kafka's own, except for the transactions a restore hands it
 * again that have already ended.
 *
 * <p>After a restore from checkpoint {@code c}, Flink's committer operator commits every transaction
 * still in its restored state, those of checkpoint {@code c} and earlier; most were committed before
 * the failure, on {@code c}'s notification. Kafka's committer resumes each with its old producer
 * epoch and commits it again, which the broker refuses as fenced (it bumped the epoch when the
 * transaction ended), and logs an ERROR that this "most likely signals data loss" for descriptors
 * that were in fact delivered: an operator reading the log after a crash believes data was lost.
 *
 * <p>So each restored transaction's state is asked first (Admin {@code describeTransactions}, the
 * id names one transaction: see {@link KafkaDescriptorDeliveryCheck}). Still {@code Ongoing} (the
 * failure struck between the checkpoint and its notification): Kafka's committer commits it. Already
 * committed: skipped, one INFO line. Ended otherwise (aborted, or fenced after it ended, which hides
 * how), or forgotten by the brokers ({@code transactional.id.expiration.ms} after it ended, as for a
 * savepoint resumed a week later): there is nothing to commit either, one INFO line; the
 * descriptor emitter decides what became of its rows and sends them again, with a WARN, if they
 * were lost. Transactions of the running
 * attempt, above {@code c}, go to Kafka's committer unasked.
 */
@Internal
public final class RestoredTransactionCommitter implements Committer<KafkaCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(RestoredTransactionCommitter.class);

    private final Committer<KafkaCommittable> kafkaCommitter;
    private final Properties adminProperties;
    private final String transactionalIdPrefix;
    private final OptionalLong restoredCheckpointId;

    /**
     * @param restoredCheckpointId the checkpoint the committer's operator was restored from, if any
     */
    public RestoredTransactionCommitter(
            Committer<KafkaCommittable> kafkaCommitter,
            Properties adminProperties,
            String transactionalIdPrefix,
            OptionalLong restoredCheckpointId) {
        this.kafkaCommitter = kafkaCommitter;
        this.adminProperties = adminProperties;
        this.transactionalIdPrefix = transactionalIdPrefix;
        this.restoredCheckpointId = restoredCheckpointId;
    }

    @Override
    public void commit(Collection<CommitRequest<KafkaCommittable>> requests) throws IOException, InterruptedException {
        List<CommitRequest<KafkaCommittable>> toCommit = new ArrayList<>(requests.size());
        Admin admin = null;
        try {
            for (CommitRequest<KafkaCommittable> request : requests) {
                if (!restored(request.getCommittable())) {
                    toCommit.add(request);
                    continue;
                }
                if (admin == null) {
                    admin = Admin.create(adminProperties);
                }
                if (stillOpen(admin, request)) {
                    toCommit.add(request);
                }
            }
        } finally {
            if (admin != null) {
                admin.close(KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT);
            }
        }
        if (!toCommit.isEmpty()) {
            kafkaCommitter.commit(toCommit);
        }
    }

    /** Whether the transaction is one of the restored checkpoint or an earlier one. */
    private boolean restored(KafkaCommittable committable) {
        if (restoredCheckpointId.isEmpty()) {
            return false;
        }
        // The sink's INCREMENTING naming: <prefix>-<subtask>-<checkpoint>.
        String id = committable.getTransactionalId();
        int dash = id.lastIndexOf('-');
        if (!id.startsWith(transactionalIdPrefix + "-") || dash < 0) {
            return false;
        }
        try {
            return Long.parseLong(id.substring(dash + 1)) <= restoredCheckpointId.getAsLong();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Settles a restored transaction that has ended; returns whether it is still open and must be committed. */
    private static boolean stillOpen(Admin admin, CommitRequest<KafkaCommittable> request) throws IOException {
        String id = request.getCommittable().getTransactionalId();
        Optional<TransactionDescription> known = KafkaDescriptorDeliveryCheck.describeIfKnown(admin, id);
        if (known.isEmpty()) {
            LOG.info(
                    "Descriptor transaction {} is forgotten by the brokers (transactional.id.expiration.ms after it"
                            + " ended): not committed again; the descriptor emitter checks whether its descriptors"
                            + " were delivered and sends them again if not",
                    id);
            request.signalFailedWithKnownReason(
                    new IllegalStateException("descriptor transaction " + id + " is forgotten by the brokers"));
            return false;
        }
        TransactionDescription description = known.get();
        switch (description.state()) {
            case ONGOING -> {
                return true;
            }
            case COMPLETE_COMMIT, PREPARE_COMMIT -> {
                LOG.info("Descriptor transaction {} committed before the failure: skipped", id);
                request.signalAlreadyCommitted();
                return false;
            }
            default -> {
                LOG.info(
                        "Descriptor transaction {} ended before the failure without a visible commit ({}): not"
                                + " committed again; the descriptor emitter checks whether its descriptors were"
                                + " delivered and sends them again if not",
                        id,
                        description.state());
                request.signalFailedWithKnownReason(new IllegalStateException(
                        "descriptor transaction " + id + " ended before the failure: " + description));
                return false;
            }
        }
    }

    @Override
    public void close() throws Exception {
        kafkaCommitter.close();
    }
}
