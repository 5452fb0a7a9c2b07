package io.blobingest.kafka.internal;

import io.blobingest.kafka.DeadLetterDeliveries;
import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import io.blobingest.sink.DescriptorDeliveryCheck.Outcome;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.internal.TransactionalIdFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What became of the transactions of one exactly-once {@code KafkaSink} (default {@code
 * INCREMENTING} naming): the epoch {@code e} of subtask {@code s} is the one transaction of id
 * {@code <prefix>-<s>-<e>}, and the coordinator's state of that id is its outcome ({@link
 * KafkaDescriptorDeliveryCheck} says why). When the state hides it ({@code Empty}: fenced after it
 * ended; or the id forgotten), the outcome is read from the delivered data: one of the epoch's
 * records, as the sink serializes it, is looked for among the committed records of its topic
 * ({@link CommittedRecordSearch}), in the background; the epoch is {@link Outcome#OPEN} until the
 * search ends. Used by the descriptor sink's check and by the dead-letter sink's ({@link
 * DeadLetterDeliveries}). One instance per subtask, on its task thread.
 */
@Internal
public final class KafkaTransactionOutcomes implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTransactionOutcomes.class);

    /** One of an epoch's records, as its sink sent it, and what to call it in the log. */
    public record Sample(String name, ProducerRecord<byte[], byte[]> record) {}

    /** Reads one of an epoch's records again, only when the outcome must be read from the data. */
    public interface Sampler {
        /** Empty when the epoch held no records. */
        Optional<Sample> sample() throws IOException;
    }

    private final String what;
    private final Properties clientProperties;
    private final Admin admin;
    private final String transactionalIdPrefix;
    /** The searches running for epochs whose transaction hides its outcome, by transactional id. */
    private final Map<String, CommittedRecordSearch> searches = new HashMap<>();

    /**
     * @param what the sink's records, capitalised, for the log ("Descriptor", "Dead-letter")
     * @param clientProperties a client's properties for the sink's cluster
     * @param admin an admin client of that cluster, closed by the caller after this
     * @param transactionalIdPrefix the sink's transactional id prefix
     */
    public KafkaTransactionOutcomes(
            String what, Properties clientProperties, Admin admin, String transactionalIdPrefix) {
        this.what = what;
        this.clientProperties = clientProperties;
        this.admin = admin;
        this.transactionalIdPrefix = transactionalIdPrefix;
    }

    /** The sink's transactional id of {@code subtask}'s records of {@code epoch}. */
    public String transactionalId(int subtask, long epoch) {
        return TransactionalIdFactory.buildTransactionalId(transactionalIdPrefix, subtask, epoch);
    }

    /**
     * @param notStampedBeforeMillis no record of the epoch carries an earlier timestamp; 0 when not known
     * @throws IOException when the outcome cannot be learned: the caller fails rather than guess
     */
    public Outcome outcome(int subtask, long epoch, long notStampedBeforeMillis, Sampler sampler) throws IOException {
        String transactionalId = transactionalId(subtask, epoch);
        Optional<TransactionDescription> known = KafkaDescriptorDeliveryCheck.describeIfKnown(admin, transactionalId);
        if (known.isEmpty()) {
            return fromDeliveredRecords(
                    transactionalId,
                    notStampedBeforeMillis,
                    sampler,
                    "was forgotten by the brokers (transactional.id.expiration.ms after it ended), which hides"
                            + " whether it committed");
        }
        TransactionDescription description = known.get();
        return switch (description.state()) {
            case COMPLETE_COMMIT, PREPARE_COMMIT -> Outcome.COMMITTED;
            case COMPLETE_ABORT, PREPARE_ABORT, PREPARE_EPOCH_FENCE -> {
                LOG.warn("{} transaction {} did not commit: {}", what, transactionalId, description);
                yield Outcome.ABORTED;
            }
            case EMPTY ->
                fromDeliveredRecords(
                        transactionalId,
                        notStampedBeforeMillis,
                        sampler,
                        "was fenced after it ended (" + description + "), which hides whether it committed");
            case ONGOING -> Outcome.OPEN;
            default ->
                throw new IOException("transaction " + transactionalId + " is in state " + description.state()
                        + ", which says neither committed nor aborted: " + description);
        };
    }

    private Outcome fromDeliveredRecords(
            String transactionalId, long notStampedBeforeMillis, Sampler sampler, String why) throws IOException {
        CommittedRecordSearch search = searches.get(transactionalId);
        if (search == null) {
            Optional<Sample> sample = sampler.sample();
            if (sample.isEmpty()) {
                LOG.info("{} transaction {} held no records: nothing to deliver again", what, transactionalId);
                return Outcome.ABORTED;
            }
            LOG.warn(
                    "{} transaction {} {}: looking for its {} among the committed records of {} stamped since {}",
                    what,
                    transactionalId,
                    why,
                    sample.get().name(),
                    sample.get().record().topic(),
                    notStampedBeforeMillis <= 0 ? "the earliest" : Instant.ofEpochMilli(notStampedBeforeMillis));
            search = CommittedRecordSearch.start(
                    sample.get().name() + " of " + what.toLowerCase(java.util.Locale.ROOT) + " transaction "
                            + transactionalId,
                    clientProperties,
                    admin,
                    sample.get().record(),
                    notStampedBeforeMillis);
            searches.put(transactionalId, search);
        }
        Optional<Boolean> found = search.result();
        if (found.isEmpty()) {
            LOG.info("Still looking for the delivered records of {} transaction {}", what, transactionalId);
            return Outcome.OPEN;
        }
        searches.remove(transactionalId).close();
        if (found.get()) {
            LOG.info("{} transaction {} committed: its record is in {}", what, transactionalId, search.topic());
            return Outcome.COMMITTED;
        }
        LOG.warn("{} transaction {} did not commit: its record is not in {}", what, transactionalId, search.topic());
        return Outcome.ABORTED;
    }

    /** Stops the searches still running. */
    @Override
    public void close() throws IOException {
        for (CommittedRecordSearch search : searches.values()) {
            search.close();
        }
        searches.clear();
    }
}
