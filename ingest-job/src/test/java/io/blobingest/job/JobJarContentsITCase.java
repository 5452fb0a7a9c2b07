package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The job jar the package phase built ({@code target/blob-ingest-job.jar}) holds only what a Flink
 * cluster lacks: this project's job code, the Kafka connector and client, Arrow; not Flink, not a
 * Kafka broker, not the profiler, not the command line's local commands.
 */
class JobJarContentsITCase {

    private static List<String> entries;
    private static String mainClass;

    @BeforeAll
    static void openJar() throws IOException {
        Path jar = Path.of(System.getProperty("blob-ingest.job-jar", "target/blob-ingest-job.jar"));
        assertThat(jar).as("the job jar, built by the package phase").isRegularFile();
        try (JarFile file = new JarFile(jar.toFile())) {
            entries = file.stream().map(ZipEntry::getName).toList();
            mainClass = file.getManifest().getMainAttributes().getValue("Main-Class");
        }
        assertThat(Files.size(jar)).as("jar size").isPositive();
    }

    @Test
    void mainClassIsTheJobsCommandLineAndItIsInTheJar() {
        assertThat(mainClass).isEqualTo("io.blobingest.job.launch.JobCli");
        assertThat(entries)
                .contains(
                        "io/blobingest/job/launch/JobCli.class",
                        "io/blobingest/job/launch/RunCommand.class",
                        "io/blobingest/job/launch/BackfillCommand.class",
                        "io/blobingest/job/IngestJob.class",
                        "io/blobingest/job/BackfillJob.class",
                        "picocli/CommandLine.class");
    }

    @Test
    void bundlesTheKafkaConnectorAndClientArrowAndTheFileSource() {
        assertThat(entries)
                .contains(
                        "org/apache/flink/connector/kafka/source/KafkaSource.class",
                        "org/apache/kafka/clients/producer/KafkaProducer.class",
                        "org/apache/arrow/vector/ipc/ArrowFileReader.class",
                        "org/apache/flink/connector/file/src/FileSource.class",
                        "io/blobingest/sink/RawPackSink.class",
                        "io/blobingest/kafka/BlobKafkaConnectors.class");
    }

    @Test
    void leavesFlinkItselfToTheCluster() {
        assertThat(entriesUnder(
                        "org/apache/flink/runtime/",
                        "org/apache/flink/api/",
                        "org/apache/flink/configuration/",
                        "org/apache/flink/streaming/api/",
                        "org/apache/flink/client/",
                        "org/apache/flink/connector/base/",
                        "flink-rpc-akka.jar",
                        "scala/",
                        "org/apache/logging/log4j/",
                        "org/slf4j/"))
                .isEmpty();
    }

    @Test
    void holdsNoKafkaBrokerNoProfilerAndNoLocalCommands() {
        assertThat(entriesUnder(
                        "kafka/server/",
                        "kafka/log/",
                        "kafka/network/",
                        "kafka/cluster/",
                        "kafka/coordinator/",
                        "org/apache/kafka/common/test/",
                        "org/apache/kafka/raft/",
                        "org/apache/kafka/storage/",
                        "io/blobingest/testkit/",
                        "one/profiler/",
                        "linux-x64/libasyncProfiler",
                        "io/blobingest/cli/",
                        "io/blobingest/bench/"))
                .isEmpty();
    }

    /**
     * Lance and its natives make 194 MB; a cluster adds them with sink-lance's blob-ingest-lance.jar (docs/lance.md).
     */
    @Test
    void holdsNoLance() {
        assertThat(entriesUnder("org/lance/", "io/blobingest/lance/", "nativelib/", "org/apache/arrow/c/"))
                .isEmpty();
    }

    /** The entries under any of {@code prefixes}; the first few, enough to name what leaked in. */
    private static List<String> entriesUnder(String... prefixes) {
        return entries.stream()
                .filter(name -> Stream.of(prefixes).anyMatch(name::startsWith))
                .limit(10)
                .toList();
    }
}
