package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * A two-phase descriptor sink standing in for the transactional Kafka sink: rows written between
 * two checkpoints form a transaction, and only committed transactions count. Commits are
 * idempotent by transaction id, as Kafka's are, so a re-commit after restore adds nothing twice.
 * Rows of a transaction that never reached a completed checkpoint are lost, like an aborted Kafka
 * transaction.
 *
 * <p>It can inject two failures: its writer's snapshot fails once ({@link
 * Failures.Point#AFTER_SNAPSHOT_BEFORE_NOTIFY}), or a write fails once ({@link
 * Failures.Point#IN_POST_COMMIT_EMISSION}), each after a third of the expected rows arrived.
 */
public final class TransactionalRowSink
        implements Sink<DescriptorRow>,
                SupportsWriterState<DescriptorRow, Integer>,
                SupportsCommitter<TransactionalRowSink.Transaction> {

    private static final long serialVersionUID = 1L;

    private static final ConcurrentMap<String, ConcurrentMap<String, List<DescriptorRow>>> COMMITTED =
            new ConcurrentHashMap<>();
    private static final ConcurrentMap<String, AtomicLong> ROWS_RECEIVED = new ConcurrentHashMap<>();

    private final String runId;
    private final long failAfterRows;

    public TransactionalRowSink(String runId, long failAfterRows) {
        this.runId = runId;
        this.failAfterRows = failAfterRows;
        COMMITTED.putIfAbsent(runId, new ConcurrentHashMap<>());
        ROWS_RECEIVED.putIfAbsent(runId, new AtomicLong());
    }

    /** Every row of every committed transaction of run {@code runId}. */
    public static List<DescriptorRow> committedRows(String runId) {
        List<DescriptorRow> rows = new ArrayList<>();
        COMMITTED.getOrDefault(runId, new ConcurrentHashMap<>()).values().forEach(rows::addAll);
        return rows;
    }

    public static long committedRowCount(String runId) {
        return COMMITTED.getOrDefault(runId, new ConcurrentHashMap<>()).values().stream()
                .mapToLong(List::size)
                .sum();
    }

    /** The rows of one checkpoint of one writer subtask. */
    public record Transaction(String id, List<DescriptorRow> rows) {}

    @Override
    public Writer createWriter(WriterInitContext context) {
        return new Writer();
    }

    @Override
    public Writer restoreWriter(WriterInitContext context, Collection<Integer> recoveredState) {
        return new Writer();
    }

    @Override
    public SimpleVersionedSerializer<Integer> getWriterStateSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(Integer value) {
                return new byte[] {value.byteValue()};
            }

            @Override
            public Integer deserialize(int version, byte[] serialized) {
                return (int) serialized[0];
            }
        };
    }

    @Override
    public Committer<Transaction> createCommitter(CommitterInitContext context) {
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<Transaction>> requests) {
                for (CommitRequest<Transaction> request : requests) {
                    Transaction transaction = request.getCommittable();
                    COMMITTED.get(runId).putIfAbsent(transaction.id(), transaction.rows());
                }
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public SimpleVersionedSerializer<Transaction> getCommittableSerializer() {
        TypeSerializer<DescriptorRow> rowSerializer =
                TypeInformation.of(DescriptorRow.class).createSerializer(new SerializerConfigImpl());
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(Transaction transaction) throws IOException {
                DataOutputSerializer out = new DataOutputSerializer(1024);
                out.writeUTF(transaction.id());
                out.writeInt(transaction.rows().size());
                for (DescriptorRow row : transaction.rows()) {
                    rowSerializer.serialize(row, out);
                }
                return out.getCopyOfBuffer();
            }

            @Override
            public Transaction deserialize(int version, byte[] serialized) throws IOException {
                DataInputDeserializer in = new DataInputDeserializer(serialized);
                String id = in.readUTF();
                int count = in.readInt();
                List<DescriptorRow> rows = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    rows.add(rowSerializer.deserialize(in));
                }
                return new Transaction(id, rows);
            }
        };
    }

    final class Writer
            implements CommittingSinkWriter<DescriptorRow, Transaction>, StatefulSinkWriter<DescriptorRow, Integer> {

        private List<DescriptorRow> open = new ArrayList<>();

        @Override
        public void write(DescriptorRow row, Context context) {
            long received = ROWS_RECEIVED.get(runId).incrementAndGet();
            if (received >= failAfterRows && Failures.fireOnce(runId, Failures.Point.IN_POST_COMMIT_EMISSION)) {
                throw Failures.injected(Failures.Point.IN_POST_COMMIT_EMISSION, "descriptor " + row.source());
            }
            open.add(row);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public Collection<Transaction> prepareCommit() {
            if (open.isEmpty()) {
                return List.of();
            }
            Transaction transaction = new Transaction(UUID.randomUUID().toString(), open);
            open = new ArrayList<>();
            return List.of(transaction);
        }

        @Override
        public List<Integer> snapshotState(long checkpointId) {
            if (ROWS_RECEIVED.get(runId).get() >= failAfterRows
                    && Failures.fireOnce(runId, Failures.Point.AFTER_SNAPSHOT_BEFORE_NOTIFY)) {
                throw Failures.injected(
                        Failures.Point.AFTER_SNAPSHOT_BEFORE_NOTIFY, "snapshot of checkpoint " + checkpointId);
            }
            return List.of();
        }

        @Override
        public void close() {}
    }
}
