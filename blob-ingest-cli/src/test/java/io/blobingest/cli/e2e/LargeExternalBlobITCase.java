package io.blobingest.cli.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1 GiB external object ingested by the {@code ./blob-ingest run} launcher in a child JVM whose
 * heap is a quarter of the object: the fetch stage only stats it, the sink streams it into a
 * Dedicated sidecar. The sidecar is then read back with a streaming crc32c, never into memory.
 */
class LargeExternalBlobITCase {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final long OBJECT_SIZE = 1L << 30;
    private static final int CHUNK = 1 << 20;
    private static final int CHILD_HEAP_MIB = 256;
    private static final Pattern GC_PAUSE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aOneGibObjectIsStreamedIntoADedicatedSidecarByAJobWithA256MibHeap() throws Exception {
        Path external = Files.createDirectories(dir.resolve("external"));
        Path object = external.resolve("one-gib.bin");
        Path base = dir.resolve("base");
        Path gcLog = dir.resolve("child-gc.log");
        try {
            long objectCrc = writePattern(object);
            KAFKA.createTopic("large-blobs", 1);
            KAFKA.createTopic("large-descriptors", 1);
            KAFKA.createTopic("large-dead-letters", 1);
            KAFKA.send(List.of(new ProducerRecord<>(
                    "large-blobs",
                    0,
                    "video".getBytes(UTF_8),
                    null,
                    List.of(new RecordHeader(
                            "blob.uri", object.toUri().toString().getBytes(UTF_8))))));

            Process child = launch(
                    gcLog,
                    dir.resolve("child-output.txt"),
                    TestEnvironment.runArguments(KAFKA, "large-blobs", "large-descriptors", "large-dead-letters", base)
                            .parallelism(1)
                            .checkpointInterval("2s")
                            .bounded()
                            .set("external.allowed-prefixes", external.toUri())
                            .toArray());

            assertThat(child.waitFor(10, TimeUnit.MINUTES))
                    .as("child job finished")
                    .isTrue();
            assertThat(child.exitValue())
                    .as(tail(dir.resolve("child-output.txt")))
                    .isZero();
            assertThat(KAFKA.drainCommitted("large-dead-letters")).isEmpty();
            List<DescriptorRow> descriptors = KAFKA.drainCommitted("large-descriptors").stream()
                    .map(DescriptorRecords::parse)
                    .toList();
            assertThat(descriptors).singleElement().satisfies(row -> {
                assertThat(row.blob())
                        .isEqualTo(
                                BlobDescriptor.dedicated(OBJECT_SIZE, row.blob().blobId()));
                assertThat(row.crc32c()).isEqualTo(objectCrc);
            });
            DescriptorRow row = descriptors.get(0);
            Path sidecar = Path.of(
                    BlobSets.sidecarUri(base.toUri(), row.blobSet(), row.blob().blobId()));
            assertThat(Files.size(sidecar)).isEqualTo(OBJECT_SIZE);
            assertThat(streamingCrc32c(sidecar))
                    .as("crc32c of the committed sidecar")
                    .isEqualTo(objectCrc);

            HeapUse heap = HeapUse.fromGcLog(gcLog);
            System.out.printf(
                    "child JVM -Xmx%dm: peak heap in use before a GC %d MiB, %d GCs%n",
                    CHILD_HEAP_MIB, heap.peakMib(), heap.collections());
            assertThat(heap.collections()).as("GCs logged by the child").isPositive();
            assertThat(heap.peakMib()).isLessThanOrEqualTo(CHILD_HEAP_MIB);
        } finally {
            Files.deleteIfExists(object);
            deleteSidecars(base);
        }
    }

    /** Each MiB is one random MiB stamped with its index, so a misplaced chunk changes the crc. */
    private static long writePattern(Path file) throws IOException {
        byte[] pattern = new byte[CHUNK];
        new SplittableRandom(1).nextBytes(pattern);
        ByteBuffer chunk = ByteBuffer.wrap(pattern);
        CRC32C crc = new CRC32C();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long i = 0; i < OBJECT_SIZE / CHUNK; i++) {
                chunk.putLong(0, i);
                crc.update(pattern, 0, CHUNK);
                chunk.clear();
                while (chunk.hasRemaining()) {
                    out.write(chunk);
                }
            }
        }
        return crc.getValue();
    }

    private static long streamingCrc32c(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
        try (FileChannel in = FileChannel.open(file)) {
            while (in.read(buffer.clear()) >= 0) {
                crc.update(buffer.flip());
            }
        }
        return crc.getValue();
    }

    private static Process launch(Path gcLog, Path output, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("blob-ingest").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("BLOB_INGEST_JAVA_OPTS", "-Xmx" + CHILD_HEAP_MIB + "m -Xlog:gc:file=" + gcLog);
        return builder.start();
    }

    private static String tail(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output, UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static void deleteSidecars(Path base) throws IOException {
        if (!Files.isDirectory(base)) {
            return;
        }
        try (var files = Files.walk(base)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.delete(file);
            }
        }
    }

    /** What the child's {@code -Xlog:gc} says: the most heap in use when a collection started. */
    private record HeapUse(long peakMib, int collections) {
        static HeapUse fromGcLog(Path gcLog) throws IOException {
            long peak = 0;
            int collections = 0;
            for (String line : Files.readAllLines(gcLog, UTF_8)) {
                Matcher pause = GC_PAUSE.matcher(line);
                if (pause.find()) {
                    peak = Math.max(peak, Long.parseLong(pause.group(1)));
                    collections++;
                }
            }
            return new HeapUse(peak, collections);
        }
    }
}
