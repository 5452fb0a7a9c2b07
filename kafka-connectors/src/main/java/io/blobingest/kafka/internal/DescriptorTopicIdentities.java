package io.blobingest.kafka.internal;

import io.blobingest.kafka.DescriptorTopicRecreatedException;
import io.blobingest.kafka.DescriptorTopics;
import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import io.blobingest.storage.DirectoryListing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The descriptor topics this job delivers to, each told apart from a topic of the same name created
 * after it was deleted: Kafka gives every topic a new id ({@code describeTopics}), never reused. The
 * id the job first saw is kept as the empty file {@code <directory>/descriptor-topics/<topic>/<id>},
 * the directory being the job's delivery markers' ({@code <base>/_delivered/<lineage>/}), so it
 * lasts across restores, restarts and {@code --fresh} starts of the same lineage. A topic with
 * another id, or none, fails the check with {@link DescriptorTopicRecreatedException}: the
 * descriptors committed into the old topic are gone with it, and the rest must not go into the new
 * one as if it held the job's whole output.
 *
 * <p>With a descriptor topic per input topic, the topics checked are those recorded so far plus
 * each one a row is first sent to ({@link #admit}); a topic recorded by no one yet and missing is
 * created then, with the broker's default partitions and replication.
 */
@Internal
public final class DescriptorTopicIdentities {

    private static final Logger LOG = LoggerFactory.getLogger(DescriptorTopicIdentities.class);

    /** Beside the delivery markers, which are files: a directory is never taken for one. */
    static final String DIRECTORY = "descriptor-topics";

    private final Path records;
    /** The topics {@link #checkAll} checks. */
    private final Set<String> known = new TreeSet<>();

    /** @param directory the job's own directory, beside its delivery markers */
    public DescriptorTopicIdentities(DescriptorTopics topics, Path directory) throws IOException {
        this.records = new Path(directory, DIRECTORY);
        Optional<String> single = topics.single();
        if (single.isPresent()) {
            known.add(single.get());
        } else {
            for (FileStatus status : DirectoryListing.list(records)) {
                String topic = status.getPath().getName();
                if (status.isDir() && topics.names(topic)) {
                    known.add(topic);
                }
            }
        }
    }

    /**
     * Records each known topic's id the first time it is seen, then compares; a topic deleted and
     * created again, or deleted, is refused.
     *
     * @throws DescriptorTopicRecreatedException when a topic is not the one first recorded
     * @throws IOException when the topics cannot be described within {@link
     *     KafkaDescriptorDeliveryCheck#LOOKUP_TIMEOUT} or a record cannot be read or written
     */
    public void checkAll(Admin admin) throws IOException {
        Map<String, Optional<Uuid>> current = currentIds(admin, known);
        for (String topic : known) {
            check(topic, current.get(topic), recordedIds(topic));
        }
    }

    /**
     * Checks {@code topic} unless it is known already, creating it if it is missing and was never
     * recorded; from then on it is known.
     */
    public void admit(Admin admin, String topic) throws IOException {
        if (known.contains(topic)) {
            return;
        }
        Optional<Uuid> current = currentIds(admin, Set.of(topic)).get(topic);
        List<String> recorded = recordedIds(topic);
        if (current.isEmpty() && recorded.isEmpty()) {
            create(admin, topic);
            current = currentIds(admin, Set.of(topic)).get(topic);
        }
        check(topic, current, recorded);
        known.add(topic);
    }

    /** @param recorded the ids kept for {@code topic}, sorted; empty before its first check */
    private void check(String topic, Optional<Uuid> current, List<String> recorded) throws IOException {
        Path record = new Path(records, topic);
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

    private static void create(Admin admin, String topic) throws IOException {
        long timeout = KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT.toMillis();
        try {
            admin.createTopics(
                            List.of(new NewTopic(topic, Optional.empty(), Optional.empty())),
                            new CreateTopicsOptions().timeoutMs((int) timeout))
                    .all()
                    .get(timeout, TimeUnit.MILLISECONDS);
            LOG.info("Created descriptor topic '{}' with the broker's default partitions and replication", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IOException("cannot create descriptor topic '" + topic + "': " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IOException(
                    "creating descriptor topic '" + topic + "' took longer than "
                            + KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating descriptor topic '" + topic + "'", e);
        }
    }

    /** Each topic's id, empty for one that does not exist; in one request. */
    private static Map<String, Optional<Uuid>> currentIds(Admin admin, Collection<String> topics) throws IOException {
        long timeout = KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT.toMillis();
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(
                        topics, new DescribeTopicsOptions().timeoutMs((int) timeout))
                .topicNameValues();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        Map<String, Optional<Uuid>> ids = new HashMap<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> topic : described.entrySet()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                ids.put(
                        topic.getKey(),
                        Optional.of(
                                topic.getValue().get(left, TimeUnit.NANOSECONDS).topicId()));
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IOException(
                            "cannot describe descriptor topic '" + topic.getKey() + "': " + e.getCause(), e.getCause());
                }
                ids.put(topic.getKey(), Optional.empty());
            } catch (TimeoutException e) {
                throw new IOException(
                        "describing descriptor topic '" + topic.getKey() + "' took longer than "
                                + KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT,
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while describing descriptor topic '" + topic.getKey() + "'", e);
            }
        }
        return ids;
    }

    private List<String> recordedIds(String topic) throws IOException {
        List<String> ids = new ArrayList<>();
        for (FileStatus status : DirectoryListing.list(new Path(records, topic))) {
            ids.add(status.getPath().getName());
        }
        ids.sort(null);
        return ids;
    }
}
