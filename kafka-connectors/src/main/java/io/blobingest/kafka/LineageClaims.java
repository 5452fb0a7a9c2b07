package io.blobingest.kafka;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.LongPredicate;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Who is starting a lineage: every start of a job appends a claim to one compacted, single-partition
 * topic before it writes anything, and the log's order decides between starts that overlap. A start
 * is refused when an earlier claim of its lineage is still alive; the first claim wins, so a job that
 * has begun is never displaced by a later submission of itself.
 *
 * <p>Watching the transactional ids ({@link TransactionActivity}) finds a job that runs; it cannot
 * see one that is still starting (no id yet, or old ids that have not moved yet). The claims close
 * that window. An earlier claim stops counting when its start ended (its launcher wrote a
 * tombstone), when it was made by a launcher on this host whose process is gone (a job that runs
 * inside its launcher dies with it), or when it is older than the claim window: by then a job that
 * started has transactions of its own to watch. A start removes the claims that stopped counting,
 * so the topic holds about one record per running job.
 *
 * <p>A claim is a record keyed {@code <lineage>/<run id>} whose value is a Java properties text
 * ({@code run}, {@code host}, {@code pid}, {@code local}); its timestamp is the broker's append time.
 */
@Internal
public final class LineageClaims {

    private static final int PARTITION = 0;
    /** How long a start may take to read the claims before its own; the partition holds about one per running job. */
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(1);

    private final String topic;
    private final Properties clientProperties;
    private final Duration window;

    /**
     * @param topic the claims topic, created (one partition, compacted, broker append time) if missing
     * @param clientProperties bootstrap servers and the user's client settings (security)
     * @param window how long a claim of a start that has not ended keeps others of its lineage out
     */
    public LineageClaims(String topic, Properties clientProperties, Duration window) {
        this.topic = topic;
        this.clientProperties = clientProperties;
        this.window = window;
    }

    /** One start's claim, as read back from the topic. */
    public record Claim(String lineage, String run, String host, long pid, boolean local, long timestamp) {

        /** The one line a refused start prints about this claim. */
        String describe(long now) {
            return "run " + run + " on " + host + (local ? ", pid " + pid : "") + ", "
                    + Duration.ofMillis(Math.max(0, now - timestamp)).toSeconds() + " s earlier";
        }
    }

    /** The claim this start holds: {@link #release} it when the job it started has ended. */
    public final class Held {
        private final Claim claim;

        private Held(Claim claim) {
            this.claim = claim;
        }

        public Claim claim() {
            return claim;
        }

        /** Ends the claim: a later start of the lineage no longer waits for it. */
        public void release() throws InterruptedException, ExecutionException {
            try (KafkaProducer<byte[], byte[]> producer = producer()) {
                producer.send(tombstone(claim)).get();
            }
        }
    }

    /** A start refused because an earlier claim of its lineage is alive. */
    public static final class RefusedException extends Exception {
        private final Claim earlier;

        RefusedException(Claim earlier, String message) {
            super(message);
            this.earlier = earlier;
        }

        public Claim earlier() {
            return earlier;
        }
    }

    /**
     * Claims {@code lineage} for a start on this host.
     *
     * @param local whether the job runs inside this process, so that its claim ends with it
     * @throws RefusedException naming the earlier start that is alive; this start's claim is withdrawn
     */
    public Held claim(String lineage, boolean local) throws RefusedException, InterruptedException, ExecutionException {
        createTopicIfMissing();
        Claim mine;
        List<Claim> earlier;
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            Claim unstamped = new Claim(
                    lineage,
                    UUID.randomUUID().toString(),
                    localHost(),
                    ProcessHandle.current().pid(),
                    local,
                    -1);
            RecordMetadata appended = producer.send(record(unstamped)).get();
            mine = new Claim(lineage, unstamped.run(), unstamped.host(), unstamped.pid(), local, appended.timestamp());
            earlier = readBefore(appended.offset(), lineage);
            Decision decision =
                    decide(mine, earlier, window, pid -> ProcessHandle.of(pid).isPresent());
            for (Claim ended : decision.ended()) {
                producer.send(tombstone(ended));
            }
            if (decision.alive().isPresent()) {
                producer.send(tombstone(mine)).get();
                Claim alive = decision.alive().get();
                throw new RefusedException(
                        alive,
                        "another start of this job claimed its lineage first (" + alive.describe(mine.timestamp())
                                + ") and has not ended");
            }
            producer.flush();
        }
        return new Held(mine);
    }

    /** What the earlier claims of a lineage mean for a new one. */
    record Decision(Optional<Claim> alive, List<Claim> ended) {}

    /**
     * The first earlier claim that is alive, and those that ended without saying so.
     *
     * @param earlier the claims of {@code mine}'s lineage before it in the log, tombstoned ones removed
     * @param processAlive whether a process of this host is running
     */
    static Decision decide(Claim mine, List<Claim> earlier, Duration window, LongPredicate processAlive) {
        List<Claim> ended = new ArrayList<>();
        Optional<Claim> alive = Optional.empty();
        for (Claim claim : earlier) {
            boolean processGone = claim.local() && claim.host().equals(mine.host()) && !processAlive.test(claim.pid());
            boolean outlived = mine.timestamp() - claim.timestamp() > window.toMillis();
            if (processGone || outlived) {
                ended.add(claim);
            } else if (alive.isEmpty()) {
                alive = Optional.of(claim);
            }
        }
        return new Decision(alive, ended);
    }

    /** The claims of {@code lineage} before {@code offset}, without those a tombstone ended. */
    private List<Claim> readBefore(long offset, String lineage) {
        Map<String, Claim> claims = new LinkedHashMap<>();
        TopicPartition partition = new TopicPartition(topic, PARTITION);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (consumer.position(partition) < offset) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read the claims of " + topic + " up to offset " + offset
                            + " within " + READ_TIMEOUT + " (at " + consumer.position(partition) + ")");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() >= offset) {
                        break;
                    }
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    if (!key.startsWith(lineage + "/") || key.indexOf('/', lineage.length() + 1) >= 0) {
                        continue;
                    }
                    if (record.value() == null) {
                        claims.remove(key);
                    } else {
                        claims.put(key, parse(lineage, record.value(), record.timestamp()));
                    }
                }
            }
        }
        return new ArrayList<>(claims.values());
    }

    private void createTopicIfMissing() throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(clientProperties)) {
            NewTopic claims = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of(
                            TopicConfig.CLEANUP_POLICY_CONFIG,
                            TopicConfig.CLEANUP_POLICY_COMPACT,
                            TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                            "LogAppendTime"));
            admin.createTopics(List.of(claims)).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private ProducerRecord<byte[], byte[]> record(Claim claim) {
        String value = "run=" + claim.run() + "\nhost=" + claim.host() + "\npid=" + claim.pid() + "\nlocal="
                + claim.local() + "\n";
        return new ProducerRecord<>(topic, PARTITION, key(claim), value.getBytes(StandardCharsets.UTF_8));
    }

    private ProducerRecord<byte[], byte[]> tombstone(Claim claim) {
        return new ProducerRecord<>(topic, PARTITION, key(claim), null);
    }

    private static byte[] key(Claim claim) {
        return (claim.lineage() + "/" + claim.run()).getBytes(StandardCharsets.UTF_8);
    }

    private static Claim parse(String lineage, byte[] value, long timestamp) {
        Properties fields = new Properties();
        try {
            fields.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException("a StringReader does not fail", e);
        }
        return new Claim(
                lineage,
                fields.getProperty("run", "?"),
                fields.getProperty("host", "?"),
                Long.parseLong(fields.getProperty("pid", "-1")),
                Boolean.parseBoolean(fields.getProperty("local", "false")),
                timestamp);
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
