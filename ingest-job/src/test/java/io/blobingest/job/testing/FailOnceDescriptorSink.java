package io.blobingest.job.testing;

import io.blobingest.kafka.internal.DelegatingDescriptorSink;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.Failures;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;

/**
 * The job's real descriptor {@link KafkaSink}, whose writer throws once while receiving committed
 * descriptors ({@link Failures.Point#IN_POST_COMMIT_EMISSION}), after {@code failAfterRows}
 * descriptors arrived across all subtasks and attempts. Everything else is delegated, so its
 * transactions, state and committer are Kafka's own.
 */
public final class FailOnceDescriptorSink extends DelegatingDescriptorSink {

    private static final long serialVersionUID = 1L;
    private static final ConcurrentMap<String, AtomicLong> ROWS_RECEIVED = new ConcurrentHashMap<>();

    private final String runId;
    private final long failAfterRows;

    public FailOnceDescriptorSink(DelegatingDescriptorSink sink, String runId, long failAfterRows) {
        super(sink);
        this.runId = runId;
        this.failAfterRows = failAfterRows;
        ROWS_RECEIVED.putIfAbsent(runId, new AtomicLong());
    }

    @Override
    public PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> createWriter(
            WriterInitContext context) throws IOException {
        return new Writer(sink.createWriter(context));
    }

    @Override
    public PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return new Writer(sink.restoreWriter(context, recoveredState));
    }

    private final class Writer
            implements PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> {

        private final PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> writer;

        Writer(PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> writer) {
            this.writer = writer;
        }

        @Override
        public void write(DescriptorRow row, Context context) throws IOException, InterruptedException {
            if (ROWS_RECEIVED.get(runId).incrementAndGet() >= failAfterRows
                    && Failures.fireOnce(runId, Failures.Point.IN_POST_COMMIT_EMISSION)) {
                throw Failures.injected(Failures.Point.IN_POST_COMMIT_EMISSION, "descriptor of " + row.source());
            }
            writer.write(row, context);
        }

        @Override
        public void writeWatermark(Watermark watermark) throws IOException, InterruptedException {
            writer.writeWatermark(watermark);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            writer.flush(endOfInput);
        }

        @Override
        public Collection<KafkaCommittable> prepareCommit() throws IOException, InterruptedException {
            return writer.prepareCommit();
        }

        @Override
        public List<KafkaWriterState> snapshotState(long checkpointId) throws IOException {
            return writer.snapshotState(checkpointId);
        }

        @Override
        public void close() throws Exception {
            writer.close();
        }
    }
}
