package io.blobingest.kafka;

import io.blobingest.kafka.internal.CommittedRecordSearch;
import io.blobingest.kafka.internal.DescriptorTopicIdentities;
import io.blobingest.kafka.internal.KafkaTransactionOutcomes;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.internal.TransactionalIdFactory;
import org.apache.flink.core.fs.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

/**
 * The descriptor {@code KafkaSink}'s epochs, looked up on the brokers. With the sink's default
 * naming strategy ({@code INCREMENTING}), the transaction holding subtask {@code s}'s rows of epoch
 * {@code e} has the transactional id {@code <prefix>-<s>-<e>} ({@link TransactionalIdFactory}), and
 * that id is used for that one transaction: the writer starts id {@code e + 1} after checkpoint
 * {@code e}, and after a restore from checkpoint {@code c} it aborts and reuses only ids above
 * {@code c}. The transaction coordinator's state of the id (Admin {@code describeTransactions})
 * is therefore the epoch's outcome: {@code CompleteCommit} or {@code PrepareCommit} is committed;
 * {@code CompleteAbort}, {@code PrepareAbort} or {@code PrepareEpochFence} is aborted; {@code
 * Ongoing} is not decided yet.
 *
 * <p>{@code Empty} says only that an {@code InitProducerId} came under the id after its last
 * transaction ended (a fencing producer: Admin {@code fenceProducers}, a zombie, {@code
 * kafka-transactions.sh}), not how that transaction ended: a committed transaction fenced
 * afterwards reads exactly as an aborted one fenced afterwards. The outcome is then read from the
 * delivered data ({@link CommittedRecordSearch}): one of the epoch's rows, serialized as the
 * descriptor sink serializes it, is looked for among the committed records of the descriptor topic
 * sent since the epoch's first row; found, the epoch is committed, not found, aborted. The search
 * runs in the background and the epoch is {@code OPEN} until it ends, which is once the
 * transactions open on the descriptor topic when it started have ended (the next checkpoint).
 *
 * <p>An id the brokers no longer know (forgotten {@code transactional.id.expiration.ms}, 7 days by
 * default, after its transaction ended: a checkpoint or savepoint resumed later than that) is read
 * from the delivered data the same way. An unreachable cluster is an error, never a guess.
 */
@PublicEvolving
public final class KafkaDescriptorDeliveryCheck implements DescriptorDeliveryCheck {

    private static final long serialVersionUID = 1L;

    /** How long one look-up may take on the task thread before the job fails. */
    public static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    private final Properties adminProperties;
    private final String transactionalIdPrefix;
    private final DescriptorTopics descriptorTopics;

    /**
     * @param adminProperties an admin client's properties for the descriptor topics' cluster
     * @param transactionalIdPrefix the descriptor sink's transactional id prefix
     * @param descriptorTopics the topics the descriptor sink writes, with {@link DescriptorRecords}
     */
    public KafkaDescriptorDeliveryCheck(
            Properties adminProperties, String transactionalIdPrefix, DescriptorTopics descriptorTopics) {
        this.adminProperties = Objects.requireNonNull(adminProperties, "adminProperties");
        this.transactionalIdPrefix = Objects.requireNonNull(transactionalIdPrefix, "transactionalIdPrefix");
        this.descriptorTopics = Objects.requireNonNull(descriptorTopics, "descriptorTopics");
    }

    /** The descriptor sink's transactional id of {@code subtask}'s rows of {@code epoch}. */
    public String transactionalId(int subtask, long epoch) {
        return TransactionalIdFactory.buildTransactionalId(transactionalIdPrefix, subtask, epoch);
    }

    /** The descriptor sink's transactional id prefix: unique per job and stable across its restores. */
    @Override
    public String lineage() {
        return transactionalIdPrefix;
    }

    /**
     * Opens a session; its {@link Session#checkDestination} keeps the descriptor topics' ids under
     * {@code directory} ({@link DescriptorTopicIdentities}).
     */
    @Override
    public Session open(Path directory) throws IOException {
        return new KafkaSession(
                Admin.create(adminProperties), new DescriptorTopicIdentities(descriptorTopics, directory));
    }

    private final class KafkaSession implements Session {

        private final Admin admin;
        private final DescriptorTopicIdentities topicIdentities;
        private final KafkaTransactionOutcomes outcomes;

        private KafkaSession(Admin admin, DescriptorTopicIdentities topicIdentities) {
            this.admin = admin;
            this.topicIdentities = topicIdentities;
            this.outcomes = new KafkaTransactionOutcomes("Descriptor", adminProperties, admin, transactionalIdPrefix);
        }

        @Override
        public void checkDestination() throws IOException {
            topicIdentities.checkAll(admin);
        }

        @Override
        public void checkDestinationOf(DescriptorRow row) throws IOException {
            topicIdentities.admit(admin, descriptorTopics.forInput(row.sourceTopic()));
        }

        @Override
        public Outcome outcome(Epoch epoch) throws IOException {
            return outcomes.outcome(
                    epoch.subtask(),
                    epoch.epoch(),
                    epoch.firstRowSentAtMillis(),
                    () -> epoch.sampleRow()
                            .map(row -> new KafkaTransactionOutcomes.Sample(
                                    "row " + row.source(),
                                    DescriptorRecords.toProducerRecord(
                                            descriptorTopics.forInput(row.sourceTopic()), row, null))));
        }

        @Override
        public void close() throws IOException {
            try {
                outcomes.close();
            } finally {
                admin.close(LOOKUP_TIMEOUT);
            }
        }
    }

    /**
     * The transaction's state on the brokers, within {@link #LOOKUP_TIMEOUT}; empty when they do not
     * know the id: never used, or forgotten {@code transactional.id.expiration.ms} (7 days by
     * default) after its last transaction ended, as for a checkpoint or savepoint resumed later.
     */
    public static Optional<TransactionDescription> describeIfKnown(Admin admin, String transactionalId)
            throws IOException {
        DescribeTransactionsOptions options =
                new DescribeTransactionsOptions().timeoutMs((int) LOOKUP_TIMEOUT.toMillis());
        try {
            return Optional.of(admin.describeTransactions(List.of(transactionalId), options)
                    .description(transactionalId)
                    .get(LOOKUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TransactionalIdNotFoundException) {
                return Optional.empty();
            }
            throw new IOException("cannot describe transaction " + transactionalId + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(
                    "describing transaction " + transactionalId + " took longer than " + LOOKUP_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while describing transaction " + transactionalId, e);
        }
    }
}
