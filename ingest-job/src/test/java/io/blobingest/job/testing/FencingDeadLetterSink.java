package io.blobingest.job.testing;

import io.blobingest.kafka.internal.DelegatingKafkaSink;
import io.blobingest.placement.DeadLetter;
import java.io.IOException;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The job's real dead-letter {@link KafkaSink}, except that once per run its committer's first
 * transaction that holds dead letters is fenced for real on the broker, as {@link
 * FencingDescriptorSink} fences a descriptor transaction: before its commit (the transaction is
 * aborted, as the broker's transaction timeout would abort it) or after it (delivered, but the
 * coordinator then calls the id {@code Empty}). The fenced id is {@link #fenced(String)}.
 */
public final class FencingDeadLetterSink extends DelegatingKafkaSink<DeadLetter> {

    private static final long serialVersionUID = 1L;

    private final Properties adminProperties;
    private final String runId;
    private final FencingDescriptorSink.When when;
    private final FencingDescriptorSink.Then then;

    public FencingDeadLetterSink(
            KafkaSink<DeadLetter> sink,
            Properties adminProperties,
            String runId,
            FencingDescriptorSink.When when,
            FencingDescriptorSink.Then then) {
        super(sink);
        this.adminProperties = adminProperties;
        this.runId = runId;
        this.when = when;
        this.then = then;
    }

    /** The dead-letter transactional id this run fenced, if it did. */
    public static String fenced(String runId) {
        return FencingDescriptorSink.fenced(key(runId));
    }

    private static String key(String runId) {
        return runId + "/dead-letters";
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return FencingDescriptorSink.fencing(
                sink.createCommitter(context), adminProperties, key(runId), "dead-letter", when, then);
    }
}
