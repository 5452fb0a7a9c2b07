package io.blobingest.cli.e2e;

import io.blobingest.cli.BlobIngestCli;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What the end-to-end tests share beside {@link io.blobingest.job.testing.JobTestEnvironment}: the
 * command line run inside this JVM, as {@code ./blob-ingest} runs it, its output captured, and the
 * arguments of a {@code run}.
 */
final class TestEnvironment {

    /** A command's exit code and everything it printed. */
    record RunResult(int exitCode, String output) {}

    private TestEnvironment() {}

    /** {@code ./blob-ingest <args>}. */
    static RunResult runCli(String... args) {
        StringWriter out = new StringWriter();
        int exitCode = BlobIngestCli.execute(args, new PrintWriter(out, true), new PrintWriter(out, true));
        return new RunResult(exitCode, out.toString());
    }

    /**
     * {@code ./blob-ingest run} against {@code kafka}, from {@code inputTopic} to the two output
     * topics, under {@code base}; a test adds the rest.
     */
    static RunArguments runArguments(
            KafkaBrokerExtension kafka,
            String inputTopic,
            String descriptorTopic,
            String deadLetterTopic,
            Object base) {
        return new RunArguments(kafka, "--input-topic", inputTopic, descriptorTopic, deadLetterTopic, base);
    }

    /** {@code ./blob-ingest run} like {@link #runArguments}, from every topic matching {@code inputTopicPattern}. */
    static RunArguments runArgumentsMatching(
            KafkaBrokerExtension kafka,
            String inputTopicPattern,
            String descriptorTopic,
            String deadLetterTopic,
            Object base) {
        return new RunArguments(
                kafka, "--input-topic-pattern", inputTopicPattern, descriptorTopic, deadLetterTopic, base);
    }

    /** The arguments of one {@code ./blob-ingest run}, in the order a person would type them. */
    static final class RunArguments {

        private final List<String> args = new ArrayList<>();

        private RunArguments(
                KafkaBrokerExtension kafka,
                String inputFlag,
                String input,
                String descriptorTopic,
                String deadLetterTopic,
                Object base) {
            add("run", "--bootstrap-servers", kafka.bootstrapServers());
            add(inputFlag, input, "--descriptor-topic", descriptorTopic, "--dlq-topic", deadLetterTopic);
            add("--base", base.toString());
        }

        RunArguments add(String... more) {
            args.addAll(List.of(more));
            return this;
        }

        RunArguments groupId(String groupId) {
            return add("--group-id", groupId);
        }

        RunArguments parallelism(int parallelism) {
            return add("--parallelism", Integer.toString(parallelism));
        }

        RunArguments checkpointInterval(String interval) {
            return add("--checkpoint-interval", interval);
        }

        RunArguments checkpointDir(Object directory) {
            return add("--checkpoint-dir", directory.toString());
        }

        RunArguments bounded() {
            return add("--bounded");
        }

        /** {@code -D key=value}. */
        RunArguments set(String key, Object value) {
            return add("-D", key + "=" + value);
        }

        List<String> toList() {
            return new ArrayList<>(args);
        }

        String[] toArray() {
            return args.toArray(String[]::new);
        }

        RunResult run() {
            return runCli(toArray());
        }
    }
}
