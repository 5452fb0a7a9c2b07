package io.blobingest.job.internal;

import io.blobingest.sink.DescriptorDeliveryCheck;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.connector.kafka.sink.internal.TransactionalIdFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The descriptor {@code KafkaSink}'s epochs, looked up on the brokers. With the sink's default
 * naming strategy ({@code INCREMENTING}), the transaction holding subtask {@code s}'s rows of epoch
 * {@code e} has the transactional id {@code <prefix>-<s>-<e>} ({@link TransactionalIdFactory}), and
 * that id is used for that one transaction: the writer starts id {@code e + 1} after checkpoint
 * {@code e}, and after a restore from checkpoint {@code c} it aborts and reuses only ids above
 * {@code c}. The transaction coordinator's state of the id (Admin {@code describeTransactions})
 * is therefore the epoch's outcome: {@code CompleteCommit} or {@code PrepareCommit} is committed;
 * {@code CompleteAbort}, {@code PrepareAbort}, {@code PrepareEpochFence}, or {@code Empty} (a
 * later {@code InitProducerId} under the id, which only a fencing producer sends) is aborted;
 * {@code Ongoing} is not decided yet. An unknown id (expired after the brokers'
 * {@code transactional.id.expiration.ms}, 7 days by default) or an unreachable cluster is an
 * error, never a guess.
 */
public final class KafkaDescriptorDeliveryCheck implements DescriptorDeliveryCheck {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(KafkaDescriptorDeliveryCheck.class);

    /** How long one look-up may take on the task thread before the job fails. */
    static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    private final Properties adminProperties;
    private final String transactionalIdPrefix;

    /**
     * @param adminProperties an admin client's properties for the descriptor topic's cluster
     * @param transactionalIdPrefix the descriptor sink's transactional id prefix
     */
    public KafkaDescriptorDeliveryCheck(Properties adminProperties, String transactionalIdPrefix) {
        this.adminProperties = Objects.requireNonNull(adminProperties, "adminProperties");
        this.transactionalIdPrefix = Objects.requireNonNull(transactionalIdPrefix, "transactionalIdPrefix");
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

    @Override
    public Session open() {
        Admin admin = Admin.create(adminProperties);
        return new Session() {
            @Override
            public Outcome outcome(int subtask, long epoch) throws IOException {
                String transactionalId = transactionalId(subtask, epoch);
                TransactionDescription description = describe(admin, transactionalId);
                return switch (description.state()) {
                    case COMPLETE_COMMIT, PREPARE_COMMIT -> Outcome.COMMITTED;
                    case COMPLETE_ABORT, PREPARE_ABORT, PREPARE_EPOCH_FENCE, EMPTY -> {
                        LOG.warn("Descriptor transaction {} did not commit: {}", transactionalId, description);
                        yield Outcome.ABORTED;
                    }
                    case ONGOING -> Outcome.OPEN;
                    default ->
                        throw new IOException("transaction " + transactionalId + " is in state " + description.state()
                                + ", which says neither committed nor aborted: " + description);
                };
            }

            @Override
            public void close() {
                admin.close(LOOKUP_TIMEOUT);
            }
        };
    }

    private static TransactionDescription describe(Admin admin, String transactionalId) throws IOException {
        DescribeTransactionsOptions options =
                new DescribeTransactionsOptions().timeoutMs((int) LOOKUP_TIMEOUT.toMillis());
        try {
            return admin.describeTransactions(List.of(transactionalId), options)
                    .description(transactionalId)
                    .get(LOOKUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
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
