package io.blobingest.cli;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code descriptors show | tail}: descriptors from manifests on storage, or from the descriptor topic. */
@Command(
        name = "descriptors",
        mixinStandardHelpOptions = true,
        description = "Print descriptors: from manifests on storage (show) or from the descriptor topic (tail).",
        subcommands = {DescriptorsCommand.Show.class, DescriptorsCommand.Tail.class})
final class DescriptorsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a descriptors command is required");
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Print descriptor manifests as tables: one manifest file, or every manifest of a"
                    + " directory (a storage root or its _descriptors directory), in name order.")
    static final class Show implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "MANIFEST|DIR", description = "A manifest (.arrow) or a directory.")
        Path path;

        @Option(names = "--limit", paramLabel = "N", description = "Print at most N rows in all (default: all).")
        Integer limit;

        @Override
        public Integer call() throws IOException {
            if (limit != null && limit < 0) {
                throw new ParameterException(spec.commandLine(), "--limit must be >= 0, found " + limit);
            }
            PrintWriter out = spec.commandLine().getOut();
            List<Path> manifests = manifests();
            if (manifests.isEmpty()) {
                out.println("no descriptor manifests in " + path);
                return BlobIngestCli.EXIT_OK;
            }
            long remaining = limit == null ? Long.MAX_VALUE : limit;
            for (int m = 0; m < manifests.size(); m++) {
                if (remaining == 0) {
                    out.printf("... %d more manifests%n", manifests.size() - m);
                    break;
                }
                remaining -= show(manifests.get(m), remaining, out);
            }
            return BlobIngestCli.EXIT_OK;
        }

        /** @return the rows printed */
        private long show(Path manifest, long maxRows, PrintWriter out) throws IOException {
            try (DescriptorManifestReader reader =
                    DescriptorManifestReader.open(new org.apache.flink.core.fs.Path(manifest.toUri()))) {
                List<DescriptorRow> rows = reader.readAll();
                out.printf(
                        "%s: blob set %s, %d rows, required features %s%n",
                        manifest,
                        reader.blobSet(),
                        rows.size(),
                        reader.requiredFeatures().isEmpty() ? "none" : String.join(",", reader.requiredFeatures()));
                TextTable table = new TextTable(
                        "key",
                        "source",
                        "kind",
                        "position",
                        "size",
                        "blob_id",
                        "uri",
                        "crc32c",
                        "timestamp",
                        "attributes");
                int shown = (int) Math.min(rows.size(), maxRows);
                for (DescriptorRow row : rows.subList(0, shown)) {
                    table.add(
                            DescriptorText.key(row),
                            row.source(),
                            DescriptorText.kind(row),
                            DescriptorText.position(row),
                            DescriptorText.size(row),
                            DescriptorText.blobId(row),
                            DescriptorText.uri(row),
                            DescriptorText.crc32c(row),
                            DescriptorText.timestamp(row),
                            DescriptorText.attributes(row));
                }
                table.print(out);
                if (shown < rows.size()) {
                    out.printf("... %d more rows%n", rows.size() - shown);
                }
                out.println();
                return shown;
            }
        }

        private List<Path> manifests() throws IOException {
            if (Files.isRegularFile(path)) {
                return List.of(path);
            }
            if (!Files.isDirectory(path)) {
                throw new ParameterException(spec.commandLine(), "no such file or directory: " + path);
            }
            Path directory = Files.isDirectory(path.resolve(BlobSets.DESCRIPTORS_DIRECTORY))
                    ? path.resolve(BlobSets.DESCRIPTORS_DIRECTORY)
                    : path;
            try (Stream<Path> files = Files.list(directory)) {
                // Hidden files are the in-progress manifests of Flink's recoverable writer.
                return files.filter(file -> Files.isRegularFile(file)
                                && file.getFileName().toString().endsWith(BlobSets.MANIFEST_SUFFIX)
                                && !file.getFileName().toString().startsWith("."))
                        .sorted()
                        .toList();
            }
        }
    }

    @Command(
            name = "tail",
            mixinStandardHelpOptions = true,
            description = "Print descriptor records as they are committed (read_committed), one line each:"
                    + " source, kind, key, position, size, blob_id, blob_set, uri, crc32c, timestamp,"
                    + " [passed-through headers]."
                    + " Runs until Ctrl-C or --limit.")
    static final class Tail implements Callable<Integer> {

        private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
        private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

        @Spec
        CommandSpec spec;

        @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers.")
        String bootstrapServers;

        @Option(names = "--topic", required = true, description = "The descriptor topic.")
        String topic;

        @Option(names = "--from-beginning", description = "Start with the oldest record instead of the next one.")
        boolean fromBeginning;

        @Option(names = "--limit", paramLabel = "N", description = "Stop after N records.")
        Integer limit;

        @Option(
                names = "-X",
                paramLabel = "KEY=VALUE",
                description = "A Kafka consumer property, e.g. -X security.protocol=SSL.")
        Map<String, String> consumerProperties = new LinkedHashMap<>();

        @Override
        public Integer call() {
            if (limit != null && limit < 1) {
                throw new ParameterException(spec.commandLine(), "--limit must be >= 1, found " + limit);
            }
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            int printed = 0;
            int malformed = 0;
            try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
                List<TopicPartition> partitions = consumer.partitionsFor(topic, METADATA_TIMEOUT).stream()
                        .map(info -> new TopicPartition(topic, info.partition()))
                        .toList();
                if (partitions.isEmpty()) {
                    throw new ParameterException(
                            spec.commandLine(), "--topic: no topic " + topic + " at " + bootstrapServers);
                }
                consumer.assign(partitions);
                if (fromBeginning) {
                    consumer.seekToBeginning(partitions);
                } else {
                    consumer.seekToEnd(partitions);
                }
                while (limit == null || printed < limit) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                        if (limit != null && printed == limit) {
                            break;
                        }
                        try {
                            out.println(line(DescriptorRecords.parse(record)));
                            printed++;
                        } catch (IllegalArgumentException e) {
                            err.println("skipped: " + e.getMessage());
                            malformed++;
                        }
                    }
                    out.flush();
                }
            }
            return malformed == 0 ? BlobIngestCli.EXIT_OK : BlobIngestCli.EXIT_FAULT;
        }

        private KafkaConsumer<byte[], byte[]> consumer() {
            Properties config = new Properties();
            config.putAll(consumerProperties);
            config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }

        static String line(DescriptorRow row) {
            return row.source() + " " + DescriptorText.kind(row)
                    + " key=" + DescriptorText.key(row)
                    + " position=" + DescriptorText.position(row)
                    + " size=" + DescriptorText.size(row)
                    + " blob_id=" + DescriptorText.blobId(row)
                    + " blob_set=" + DescriptorText.blobSet(row)
                    + " uri=" + DescriptorText.uri(row)
                    + " crc32c=" + DescriptorText.crc32c(row)
                    + " timestamp=" + DescriptorText.timestamp(row)
                    + " [" + (row.attributes().isEmpty() ? "" : DescriptorText.attributes(row)) + "]";
        }
    }
}
