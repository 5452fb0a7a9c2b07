package io.blobingest.job.testing;

import io.blobingest.kafka.internal.DelegatingDescriptorSink;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The job's real descriptor {@link KafkaSink}, except that once per run its committer's first
 * transaction that holds descriptors is fenced for real on the broker: Admin {@code
 * fenceProducers} bumps the producer epoch of its transactional id. {@link When#BEFORE_ITS_COMMIT}
 * fences it just before the commit, which aborts the open transaction, as the broker's transaction
 * timeout would; Kafka's committer then gets {@code ProducerFencedException}, logs it and drops the
 * transaction, and the descriptors it held are gone. {@link When#AFTER_ITS_COMMIT} fences it just
 * after the commit, as a zombie producer or an operator's {@code kafka-transactions.sh} would: the
 * descriptors are delivered, but the coordinator then calls the id {@code Empty}, the state it
 * also gives an aborted transaction fenced in turn. With {@link Then#FAIL_THE_NOTIFICATION} the
 * committer also throws after that commit, so the job restores from the checkpoint whose
 * notification was running, and the fencing meets a restore. {@link When#NOT_FENCED} commits that
 * transaction as usual, so that such a restore meets a transaction committed before the failure.
 */
public final class FencingDescriptorSink extends DelegatingDescriptorSink {

    private static final long serialVersionUID = 1L;

    /** The transactional id fenced (or, {@link When#NOT_FENCED}, committed before the failure) in each run. */
    private static final ConcurrentMap<String, String> FENCED = new ConcurrentHashMap<>();

    /** When the transaction is fenced. */
    public enum When {
        BEFORE_ITS_COMMIT,
        AFTER_ITS_COMMIT,
        NOT_FENCED
    }

    /** What the committer does after the fenced commit. */
    public enum Then {
        GO_ON,
        FAIL_THE_NOTIFICATION
    }

    private final Properties adminProperties;
    private final String runId;
    private final When when;
    private final Then then;

    public FencingDescriptorSink(
            DelegatingDescriptorSink sink, Properties adminProperties, String runId, When when, Then then) {
        super(sink);
        this.adminProperties = adminProperties;
        this.runId = runId;
        this.when = when;
        this.then = then;
    }

    /** The transactional id this run fenced (or chose, {@link When#NOT_FENCED}), if it did. */
    public static String fenced(String runId) {
        return FENCED.get(runId);
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return fencing(sink.createCommitter(context), adminProperties, runId, "descriptor", when, then);
    }

    /**
     * {@code committer}, except that the first of its commits that holds a transaction fences that
     * transaction on the broker, {@code when}, once per {@code key}; the fenced id is then {@link
     * #fenced(String) fenced(key)}. {@code what} names the sink in the injected failure.
     */
    public static Committer<KafkaCommittable> fencing(
            Committer<KafkaCommittable> committer,
            Properties adminProperties,
            String key,
            String what,
            When when,
            Then then) {
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<KafkaCommittable>> requests)
                    throws IOException, InterruptedException {
                String transactionalId = requests.isEmpty()
                        ? null
                        : requests.iterator().next().getCommittable().getTransactionalId();
                boolean fence = transactionalId != null && FENCED.putIfAbsent(key, transactionalId) == null;
                if (fence && when == When.BEFORE_ITS_COMMIT) {
                    fenceProducer(adminProperties, transactionalId);
                }
                committer.commit(requests);
                if (fence && when == When.AFTER_ITS_COMMIT) {
                    fenceProducer(adminProperties, transactionalId);
                }
                if (fence && then == Then.FAIL_THE_NOTIFICATION) {
                    throw new IllegalStateException(
                            "injected failure after the commit of " + what + " transaction " + transactionalId);
                }
            }

            @Override
            public void close() throws Exception {
                committer.close();
            }
        };
    }

    private static void fenceProducer(Properties adminProperties, String transactionalId) throws IOException {
        try (Admin admin = Admin.create(adminProperties)) {
            admin.fenceProducers(List.of(transactionalId))
                    .all()
                    .get(Duration.ofMinutes(1).toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IOException("cannot fence " + transactionalId, e);
        }
    }

    /** Each fencing moment with each way the job goes on: the parameters of a fenced-transaction test. */
    public static Stream<Arguments> faults() {
        return Stream.of(When.BEFORE_ITS_COMMIT, When.AFTER_ITS_COMMIT)
                .flatMap(when -> Arrays.stream(Then.values()).map(then -> Arguments.of(when, then)));
    }
}
