package io.blobingest.kafka.internal;

import io.blobingest.kafka.DescriptorTopicRecreatedException;
import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import io.blobingest.storage.DirectoryListing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The descriptor topic this job delivers to, told apart from a topic of the same name created after
 * it was deleted: Kafka gives every topic a new id ({@code describeTopics}), never reused. The id
 * the job first saw is kept as the empty file {@code <directory>/descriptor-topics/<topic>/<id>},
 * the directory being the job's delivery markers' ({@code <base>/_delivered/<lineage>/}), so it
 * lasts across restores, restarts and {@code --fresh} starts of the same lineage. A topic with
 * another id, or none, fails the check with {@link DescriptorTopicRecreatedException}: the
 * descriptors committed into the old topic are gone with it, and the rest must not go into the new
 * one as if it held the job's whole output.
 */
@Internal
public final class DescriptorTopicIdentity {

    private static final Logger LOG = LoggerFactory.getLogger(DescriptorTopicIdentity.class);

    /** Beside the delivery markers, which are files: a directory is never taken for one. */
    static final String DIRECTORY = "descriptor-topics";

    private final String topic;
    private final Path record;

    /** @param directory the job's own directory, beside its delivery markers */
    public DescriptorTopicIdentity(String topic, Path directory) {
        this.topic = topic;
        this.record = new Path(new Path(directory, DIRECTORY), topic);
    }

    /**
     * Records the topic's id the first time it is seen, then compares; a topic deleted and created
     * again, or deleted, is refused.
     *
     * @throws DescriptorTopicRecreatedException when the topic is not the one first recorded
     * @throws IOException when the topic cannot be described within {@link KafkaDescriptorDeliveryCheck#LOOKUP_TIMEOUT}
     *     or the record cannot be read or written
     */
    public void check(Admin admin) throws IOException {
        Optional<Uuid> current = currentId(admin);
        List<String> recorded = recordedIds();
        if (recorded.isEmpty()) {
            if (current.isPresent()) {
                Path file = new Path(record, current.get().toString());
                file.getFileSystem().create(file, WriteMode.OVERWRITE).close();
                LOG.info("Descriptor topic '{}' has topic id {}: recorded in {}", topic, current.get(), record);
            }
            return;
        }
        if (current.isPresent() && recorded.equals(List.of(current.get().toString()))) {
            return;
        }
        throw new DescriptorTopicRecreatedException("descriptor topic '" + topic + "' was deleted"
                + (current.isPresent() ? " and recreated" : "") + " since this job first delivered to it (topic id "
                + String.join(", ", recorded) + ", now "
                + current.map(Uuid::toString).orElse("none")
                + "): the descriptors committed before are gone with the old topic; refusing to write the rest into "
                + (current.isPresent() ? "the new one" : "another") + ". To deliver into "
                + (current.isPresent() ? "it" : "a new one") + " anyway, delete " + record
                + " (the committed manifests under the base still hold every descriptor, and backfill --from "
                + "delivers them again), or start over under a new --group-id");
    }

    private Optional<Uuid> currentId(Admin admin) throws IOException {
        long timeout = KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT.toMillis();
        try {
            return Optional.of(
                    admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs((int) timeout))
                            .allTopicNames()
                            .get(timeout, TimeUnit.MILLISECONDS)
                            .get(topic)
                            .topicId());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw new IOException("cannot describe descriptor topic '" + topic + "': " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(
                    "describing descriptor topic '" + topic + "' took longer than "
                            + KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while describing descriptor topic '" + topic + "'", e);
        }
    }

    private List<String> recordedIds() throws IOException {
        List<String> ids = new ArrayList<>();
        for (FileStatus status : DirectoryListing.list(record)) {
            ids.add(status.getPath().getName());
        }
        ids.sort(null);
        return ids;
    }
}
