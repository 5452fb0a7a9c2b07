package io.blobingest.kafka;

import io.blobingest.kafka.internal.DeadLetterRef;
import io.blobingest.kafka.internal.InputRecordReader;
import io.blobingest.kafka.internal.KafkaTransactionOutcomes;
import io.blobingest.kafka.internal.PendingDeadLetters;
import io.blobingest.kafka.internal.PendingDeadLettersSerializer;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.sink.DescriptorDeliveryCheck.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.util.SimpleVersionedListState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.SourceOperatorStreamTask;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits in front of the exactly-once dead-letter {@code KafkaSink}, chained to it, and makes sure
 * every dead letter it passes on is committed, as the descriptor emitter does for descriptors
 * ({@code DescriptorDeliveries}): a dead-letter transaction aborted after the checkpoint that closed
 * it (the broker's transaction timeout, a fencing producer) is only logged by Kafka's committer,
 * and the source has read past its inputs.
 *
 * <p>Per epoch (the dead letters between two checkpoints: one transaction {@code
 * <prefix>-dead-letters-<subtask>-<epoch>}, counted as the sink's writer counts them) it keeps the
 * coordinates of what it sent, not the records ({@link DeadLetterRef}: input topic, partition,
 * offset, code, detail), in operator state ({@link PendingDeadLettersSerializer}). On each completed
 * checkpoint, and on restore, it asks the brokers what became of every epoch that checkpoint closes
 * ({@link KafkaTransactionOutcomes}): committed epochs are forgotten; aborted ones have their inputs
 * read again from the input topic ({@link InputRecordReader}) and their dead letters sent again,
 * into the current epoch, checked in turn; undecided ones are asked about at the next checkpoint. An
 * input no longer in its topic fails the job naming it. At its end of input every dead letter must
 * be known to be committed ({@link #endInput}).
 *
 * <p>Only dead letters of records read from the input topic are checked: the backfill's (manifest
 * rows) have no input record to read again, and pass unchecked ({@code deadLettersUnchecked}).
 *
 * <p>Metrics: {@code deadLettersReSent}, {@code deadLettersUnchecked}.
 */
@PublicEvolving
public final class DeadLetterDeliveries extends AbstractStreamOperator<DeadLetter>
        implements OneInputStreamOperator<DeadLetter, DeadLetter>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterDeliveries.class);

    /** The operator list state of the epochs not yet known to be committed. */
    static final String PENDING_STATE = "pending-dead-letter-deliveries";

    private final Properties clientProperties;
    private final String transactionalIdPrefix;
    private final String deadLetterTopic;
    /** Null: no input topic (a backfill), nothing is checked. */
    private final InputTopics inputTopics;
    /** Without checkpoints there are no epochs to check. */
    private final boolean checkpointing;

    private transient ListState<PendingDeadLetters> pendingState;
    /** Epochs sent into and not yet known to be committed, oldest first. */
    private transient List<PendingDeadLetters> pending;
    /** Dead letters sent into the current epoch. */
    private transient List<DeadLetterRef> current;
    /** No dead letter of the current epoch carries an earlier timestamp. */
    private transient long currentNotStampedBefore;
    /** The checkpoint that will close the current epoch. */
    private transient long currentEpoch;

    private transient int subtask;
    private transient boolean checking;
    private transient Admin admin;
    private transient KafkaTransactionOutcomes outcomes;
    private transient InputRecordReader reader;
    private transient DeadLetterRecordSerializer serializer;
    private transient Counter reSent;
    private transient Counter unchecked;

    /**
     * @param clientProperties a client's properties for the cluster (bootstrap servers, {@code kafka.properties})
     * @param transactionalIdPrefix the dead-letter sink's transactional id prefix
     * @param deadLetterTopic the topic it writes
     * @param inputTopics the topics whose records' dead letters are checked; null: none (a backfill)
     * @param checkpointing whether the job takes checkpoints; without, nothing is checked
     */
    public DeadLetterDeliveries(
            Properties clientProperties,
            String transactionalIdPrefix,
            String deadLetterTopic,
            InputTopics inputTopics,
            boolean checkpointing) {
        this.clientProperties = Objects.requireNonNull(clientProperties, "clientProperties");
        this.transactionalIdPrefix = Objects.requireNonNull(transactionalIdPrefix, "transactionalIdPrefix");
        this.deadLetterTopic = Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
        this.inputTopics = inputTopics;
        this.checkpointing = checkpointing;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        pendingState = new SimpleVersionedListState<>(
                context.getOperatorStateStore()
                        .getListState(new ListStateDescriptor<>(PENDING_STATE, BytePrimitiveArraySerializer.INSTANCE)),
                PendingDeadLettersSerializer.INSTANCE);
        pending = new ArrayList<>();
        for (PendingDeadLetters restored : pendingState.get()) {
            pending.add(restored);
        }
        current = new ArrayList<>();
        // The sink's writer starts its first transaction for the checkpoint after the restored one
        // (restored id + 1, or 1), and a new one after each checkpoint it takes.
        currentEpoch = context.getRestoredCheckpointId().orElse(0L) + 1;
    }

    /**
     * Settles the restored epochs: each is closed by the restored checkpoint or an earlier one, and
     * the sink's committer, further down the chain and so initialized first, has already committed
     * what its restored state held.
     */
    @Override
    public void open() throws Exception {
        super.open();
        reSent = getMetricGroup().counter("deadLettersReSent");
        unchecked = getMetricGroup().counter("deadLettersUnchecked");
        checking = inputTopics != null && checkpointing;
        serializer = new DeadLetterRecordSerializer(deadLetterTopic);
        if (checking || !pending.isEmpty()) {
            admin = Admin.create(clientProperties);
            outcomes = new KafkaTransactionOutcomes("Dead-letter", clientProperties, admin, transactionalIdPrefix);
        }
        if (!pending.isEmpty()) {
            LOG.info("Checking the delivery of {} restored epochs of dead letters: {}", pending.size(), pending);
            settle(currentEpoch - 1);
        }
    }

    @Override
    public void processElement(StreamRecord<DeadLetter> element) {
        DeadLetter deadLetter = element.getValue();
        if (checking && inputTopics.contains(deadLetter.record().topic())) {
            sending(DeadLetterRef.of(deadLetter), element.hasTimestamp() ? element.getTimestamp() : Long.MAX_VALUE);
        } else {
            unchecked.inc();
        }
        output.collect(element);
    }

    /** Notes a dead letter about to be sent into the current epoch; {@code timestamp} is the one it carries. */
    private void sending(DeadLetterRef ref, long timestamp) {
        long notBefore = Math.min(timestamp, System.currentTimeMillis());
        currentNotStampedBefore = current.isEmpty() ? notBefore : Math.min(currentNotStampedBefore, notBefore);
        current.add(ref);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (!current.isEmpty()) {
            pending.add(new PendingDeadLetters(subtask, currentEpoch, currentNotStampedBefore, current));
            current = new ArrayList<>();
        }
        pendingState.update(pending);
        // The sink's writer, snapshotted in the same call, starts its next transaction now.
        currentEpoch = context.getCheckpointId() + 1;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (outcomes != null) {
            settle(checkpointId);
        }
    }

    /** Forgets the committed epochs closed by {@code checkpointId} or earlier, sends the aborted ones again. */
    private void settle(long checkpointId) throws IOException {
        List<PendingDeadLetters> aborted = new ArrayList<>();
        for (Iterator<PendingDeadLetters> it = pending.iterator(); it.hasNext(); ) {
            PendingDeadLetters epoch = it.next();
            if (epoch.epoch() > checkpointId) {
                continue;
            }
            Outcome outcome;
            try {
                outcome = outcomes.outcome(
                        epoch.subtask(), epoch.epoch(), epoch.notStampedBeforeMillis(), () -> sample(epoch));
            } catch (IOException e) {
                throw new IOException(
                        "cannot learn whether the dead letters of " + epoch + " (transaction "
                                + outcomes.transactionalId(epoch.subtask(), epoch.epoch()) + ") were delivered;"
                                + " they stay pending in the last checkpoint",
                        e);
            }
            switch (outcome) {
                case COMMITTED -> it.remove();
                case ABORTED -> {
                    aborted.add(epoch);
                    it.remove();
                }
                case OPEN ->
                    LOG.info(
                            "Dead-letter transaction of subtask {}, epoch {} is still open at checkpoint {}; asking"
                                    + " again at the next one",
                            epoch.subtask(),
                            epoch.epoch(),
                            checkpointId);
            }
        }
        for (PendingDeadLetters epoch : aborted) {
            resend(epoch);
        }
    }

    private Optional<KafkaTransactionOutcomes.Sample> sample(PendingDeadLetters epoch) throws IOException {
        DeadLetterRef first = epoch.deadLetters().get(0);
        ConsumerRecord<byte[], byte[]> input = inputs(epoch, List.of(first)).get(0);
        return Optional.of(new KafkaTransactionOutcomes.Sample(
                "dead letter of input " + first, serializer.serialize(deadLetter(input, first), null, null)));
    }

    private void resend(PendingDeadLetters epoch) throws IOException {
        String transactionalId = outcomes.transactionalId(epoch.subtask(), epoch.epoch());
        LOG.warn(
                "Dead-letter transaction {} was aborted (the broker's transaction timeout, or a fencing producer):"
                        + " reading the inputs of its {} dead letters again from {} and sending them again, into"
                        + " epoch {}",
                transactionalId,
                epoch.deadLetters().size(),
                inputTopics,
                currentEpoch);
        List<ConsumerRecord<byte[], byte[]>> inputs = inputs(epoch, epoch.deadLetters());
        for (int i = 0; i < inputs.size(); i++) {
            DeadLetterRef ref = epoch.deadLetters().get(i);
            ConsumerRecord<byte[], byte[]> input = inputs.get(i);
            sending(ref, input.timestamp());
            output.collect(new StreamRecord<>(deadLetter(input, ref), input.timestamp()));
            reSent.inc();
        }
    }

    private List<ConsumerRecord<byte[], byte[]>> inputs(PendingDeadLetters epoch, List<DeadLetterRef> refs)
            throws IOException {
        if (reader == null) {
            reader = new InputRecordReader(clientProperties);
        }
        try {
            return reader.read(refs);
        } catch (IOException e) {
            throw new IOException(
                    "cannot send the dead letters of " + epoch + " again: their transaction "
                            + outcomes.transactionalId(epoch.subtask(), epoch.epoch())
                            + " was aborted, and " + e.getMessage(),
                    e);
        }
    }

    /** The dead letter of {@code input}, as it was sent: its input record as the source read it. */
    private static DeadLetter deadLetter(ConsumerRecord<byte[], byte[]> input, DeadLetterRef ref) {
        List<Attribute> headers = new ArrayList<>();
        for (Header header : input.headers()) {
            headers.add(new Attribute(header.key(), header.value()));
        }
        BlobRecord record = new BlobRecord(
                input.key(),
                input.value(),
                headers,
                input.topic(),
                input.partition(),
                input.offset(),
                BlobRecordDeserializationSchema.timestamp(input));
        return new DeadLetter(record, ref.code(), ref.detail());
    }

    /**
     * At the end of input, every dead letter sent must be known to be committed: the job's final
     * checkpoint commits the sink's last transaction, and its notification is the last call Flink
     * makes on the task, too late to send anything again. A task chained to its source serves the
     * mailbox (checkpoints and their notifications) until then. The job's dead-letter sink reads a
     * union of side outputs over the network instead, and such a task cannot take a checkpoint once
     * its input has ended: it fails, and the restored job settles and delivers what is pending. In
     * the ingest job this rarely happens: the source's task holds its own end of input until two
     * checkpoints after it have completed (the Raw Pack sink's drain and descriptor emitter), which
     * close, check and, if need be, send again and check the last dead-letter epochs first.
     */
    @Override
    public void endInput() throws Exception {
        if (outcomes == null || (pending.isEmpty() && current.isEmpty())) {
            return;
        }
        if (!(getContainingTask() instanceof SourceOperatorStreamTask<?>)) {
            throw new IllegalStateException("Input ended while the dead letters of the current epoch ("
                    + current.size() + ") and of the closed epochs " + pending + " are not known to be delivered"
                    + " (a dead-letter transaction aborted and sent again, or not yet decided). This task reads its"
                    + " input from the network and cannot take the checkpoint that would commit them once its input"
                    + " has ended: failing, so that the restored job delivers them");
        }
        LOG.info(
                "Input ended: waiting until the dead letters of the current epoch ({}) and of {} closed epochs are"
                        + " delivered: {}",
                current.size(),
                pending.size(),
                pending);
        MailboxExecutor mailbox =
                getContainingTask().getMailboxExecutorFactory().createExecutor(TaskMailbox.MIN_PRIORITY);
        while (!pending.isEmpty() || !current.isEmpty()) {
            mailbox.yield();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (outcomes != null) {
                outcomes.close();
            }
            if (reader != null) {
                reader.close();
            }
            if (admin != null) {
                admin.close(KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT);
            }
        } finally {
            super.close();
        }
    }
}
