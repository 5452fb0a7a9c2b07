package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.IngestJobOptions;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.launch.RunCommand;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * docs/configuration.md's options table and its YAML example against the code, so that the docs
 * cannot drift: every option of the job and every key the {@code run} command sets has a row, every
 * row is such a key, and the YAML example is a configuration file {@code run} accepts.
 */
class ConfigurationDocsTest {

    private static final Path DOC = Path.of("").toAbsolutePath().getParent().resolve("docs/configuration.md");
    private static final Pattern TABLE_KEY = Pattern.compile("^\\| `([a-z0-9.-]+)` \\|");
    private static final List<Class<?>> OPTION_CLASSES =
            List.of(IngestJobOptions.class, BlobKafkaOptions.class, RawPackSinkOptions.class, LanceOutputOptions.class);

    @TempDir
    Path dir;

    @Test
    void everyOptionOfTheJobHasARow() throws Exception {
        assertThat(documentedKeys()).containsAll(optionKeys());
    }

    @Test
    void everyKeyTheRunCommandSetsHasARow() throws Exception {
        assertThat(documentedKeys()).containsAll(keysSetByRun());
    }

    @Test
    void everyRowIsAnOptionOfTheJobOrSetByTheRunCommand() throws Exception {
        Set<String> known = new TreeSet<>(optionKeys());
        known.addAll(keysSetByRun());

        assertThat(known).containsAll(documentedKeys());
    }

    @Test
    void theYamlExampleIsAConfigurationFileTheRunCommandAccepts() throws Exception {
        Path file = Files.writeString(dir.resolve("ingest.yaml"), docBlock("```yaml"));

        Configuration config = configuration("run", "--config", file.toString());

        assertThat(config.get(BlobKafkaOptions.INPUT_TOPIC)).isEqualTo("blobs");
        assertThat(config.get(BlobKafkaOptions.DEAD_LETTER_TOPIC)).isEqualTo("blob-dead-letters");
        assertThat(config.get(RawPackSinkOptions.ROLL_POLICY)).isEqualTo(RollPolicy.SIZE_OR_TIME);
        assertThat(config.get(RawPackSinkOptions.PACK_TARGET_SIZE)).isEqualTo(MemorySize.parse("256mb"));
        assertThat(config.get(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES))
                .containsExactly("s3://robots/raw/", "file:///data/clips/");
        assertThat(config.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(30));
    }

    /** The keys of every row of the table under "## Options". */
    private static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        boolean inSection = false;
        for (String line : Files.readAllLines(DOC)) {
            if (line.startsWith("## ")) {
                inSection = line.equals("## Options");
            }
            Matcher row = TABLE_KEY.matcher(line);
            if (inSection && row.find()) {
                keys.add(row.group(1));
            }
        }
        assertThat(keys).as("rows of the options table in " + DOC).isNotEmpty();
        return keys;
    }

    /** The first fenced block of the doc that opens with {@code fence}. */
    private static String docBlock(String fence) throws IOException {
        String text = Files.readString(DOC);
        int start = text.indexOf(fence + "\n");
        assertThat(start).as("a " + fence + " block in " + DOC).isNotNegative();
        int from = start + fence.length() + 1;
        return text.substring(from, text.indexOf("```", from));
    }

    private static Set<String> optionKeys() throws IllegalAccessException {
        Set<String> keys = new TreeSet<>();
        for (Class<?> options : OPTION_CLASSES) {
            for (Field field : options.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && ConfigOption.class.isAssignableFrom(field.getType())) {
                    keys.add(((ConfigOption<?>) field.get(null)).key());
                }
            }
        }
        assertThat(keys).as("options of " + OPTION_CLASSES).isNotEmpty();
        return keys;
    }

    /** Every key the run command sets when every one of its options is given. */
    private Set<String> keysSetByRun() throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        Files.createDirectories(checkpoints.resolve("a1b2/chk-7"));
        Files.write(checkpoints.resolve("a1b2/chk-7/_metadata"), new byte[] {1});
        Files.writeString(checkpoints.resolve("a1b2").resolve(RetainedCheckpoints.LINEAGE_RECORD), "g");
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                "localhost:9092",
                "--input-topic",
                "in",
                "--descriptor-topic",
                "out",
                "--dlq-topic",
                "dlq",
                "--group-id",
                "g",
                "--base",
                dir.resolve("base").toString(),
                "--parallelism",
                "2",
                "--checkpoint-interval",
                "5s",
                "--bounded",
                "--checkpoint-dir",
                checkpoints.toString(),
                "--resume"));
        return configuration(args.toArray(String[]::new)).keySet();
    }

    /** The configuration {@code run} builds from these arguments, without running anything. */
    static Configuration configuration(String... args) throws IOException {
        CommandLine.ParseResult parsed = BlobIngestCli.commandLine().parseArgs(args);
        RunCommand run = parsed.subcommand().commandSpec().commandLine().getCommand();
        return run.configuration();
    }
}
