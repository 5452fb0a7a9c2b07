package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorOutputFactory;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The {@code ./blob-ingest} launcher in a child JVM (it {@code exec}s java, so the process is the
 * JVM; under strace, {@link #startStallingLinks}, the JVM is strace's child), output in {@code log}.
 */
record ChildProcess(Process process, Path log) {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final int SIGKILL_EXIT_CODE = 128 + 9;

    static ChildProcess start(List<String> args, Path log) throws IOException {
        return start(List.of(), args, log);
    }

    /** As {@link #start(List, Path)} with the {@code blob-ingest} launcher in {@code root}: another release's. */
    static ChildProcess start(Path root, List<String> args, Path log) throws IOException {
        return start(List.of(), root, args, log);
    }

    /**
     * As {@link #start(List, Path)}, under strace, which holds every {@code linkat(2)} call of the
     * child for {@code stall} before it runs (strace's syscall fault injection, filtered with
     * seccomp so that no other call stops). Lance 7.0.0 makes a version of a local dataset with
     * one such call (the new manifest linked to the version's name), and nothing else in the job
     * calls it: each Lance commit then stops between its manifest written and its version made.
     */
    static ChildProcess startStallingLinks(List<String> args, Path log, Duration stall) throws IOException {
        List<String> strace = List.of(
                "strace",
                "-f",
                "--seccomp-bpf",
                "-qq",
                "-o",
                "/dev/null",
                "-e",
                "trace=linkat",
                "-e",
                "inject=linkat:delay_enter=" + TimeUnit.NANOSECONDS.toMicros(stall.toNanos()));
        return start(strace, args, log);
    }

    /**
     * As {@link #start(List, Path)} with {@link FailOnceAtCheckpointOutput} on the child's class
     * path, so that {@code -D test.fail-once-at-checkpoint=<key>:<checkpoint>} fails a task of the
     * child's job once (see there; the injected failure's message is in the child's log). The
     * launcher's class path holds only the command line's jar, so this starts the JVM as the
     * launcher's last line does, with a directory holding that output's classes and its {@code
     * META-INF/services} entry after the jar (not all of the test classes: their {@code
     * log4j2-test.properties} would change the child's logging).
     */
    static ChildProcess startWithFailureHook(List<String> args, Path log) throws IOException, URISyntaxException {
        Path hooks = Files.createDirectories(log.resolveSibling(log.getFileName() + ".hooks"));
        Path testClasses = Path.of(FailOnceAtCheckpointOutput.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path classes = Path.of(FailOnceAtCheckpointOutput.class.getPackageName().replace('.', '/'));
        Files.createDirectories(hooks.resolve(classes));
        try (Stream<Path> files = Files.list(testClasses.resolve(classes))) {
            for (Path file : files.filter(file ->
                            file.getFileName().toString().startsWith(FailOnceAtCheckpointOutput.class.getSimpleName()))
                    .toList()) {
                Files.copy(file, hooks.resolve(classes).resolve(file.getFileName()));
            }
        }
        Path services = Path.of("META-INF", "services", DescriptorOutputFactory.class.getName());
        Files.createDirectories(hooks.resolve(services).getParent());
        Files.writeString(hooks.resolve(services), FailOnceAtCheckpointOutput.class.getName() + "\n");
        // The launcher's exec line (blob-ingest), with the hooks after the jar.
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "-Dblob-ingest.plugins-dir=" + ROOT.resolve("blob-ingest-cli/target/flink-plugins"),
                "-cp",
                ROOT.resolve("blob-ingest-cli/target/blob-ingest.jar") + File.pathSeparator + hooks,
                "io.blobingest.cli.BlobIngestCli"));
        command.addAll(1, javaOptions(log));
        command.addAll(args);
        return new ChildProcess(
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start(),
                log);
    }

    /** The child JVM's options ({@code BLOB_INGEST_JAVA_OPTS} for the launcher). */
    private static List<String> javaOptions(Path log) throws IOException {
        // The JVM's temporary files go with the test's directory: a SIGKILLed JVM never runs its
        // deleteOnExit, and with the Lance output it leaves a 181 MB copy of Lance's natives. C1 alone
        // compiles a child's code: a short run spends a sixth less CPU, which the test JVMs beside it get.
        Path tmp = Files.createDirectories(log.resolveSibling(log.getFileName() + ".tmp"));
        return List.of("-Xmx1g", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp);
    }

    private static ChildProcess start(List<String> wrapper, List<String> args, Path log) throws IOException {
        return start(wrapper, ROOT, args, log);
    }

    private static ChildProcess start(List<String> wrapper, Path root, List<String> args, Path log) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.add(root.resolve("blob-ingest").toString());
        command.addAll(args);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("BLOB_INGEST_JAVA_OPTS", String.join(" ", javaOptions(log)));
        return new ChildProcess(builder.start(), log);
    }

    /** Creates the topics {@link #runCommand} names: {@code blobs} with {@code partitions}, the outputs with one. */
    static void createTopics(KafkaBrokerExtension kafka, int partitions)
            throws ExecutionException, InterruptedException {
        kafka.createTopic("blobs", partitions);
        kafka.createTopic("descriptors", 1);
        kafka.createTopic("dead-letters", 1);
    }

    /**
     * The arguments of a {@code run} over the topics {@code blobs}, {@code descriptors} and {@code
     * dead-letters}, checkpoints retained under {@code checkpoints}.
     */
    static List<String> runCommand(
            KafkaBrokerExtension kafka,
            String groupId,
            Path base,
            int parallelism,
            String checkpointInterval,
            Path checkpoints) {
        return TestEnvironment.runArguments(kafka, "blobs", "descriptors", "dead-letters", base)
                .groupId(groupId)
                .parallelism(parallelism)
                .checkpointInterval(checkpointInterval)
                .checkpointDir(checkpoints)
                .toList();
    }

    /** Prints the output of each child started so far (null: not started), for a failed test. */
    static void printOutputs(ChildProcess... children) {
        for (ChildProcess child : children) {
            if (child != null) {
                System.out.println("---- output of " + child.log() + " ----\n" + child.output());
            }
        }
    }

    /** Kills each child still running (null: not started). */
    static void destroyAll(ChildProcess... children) throws InterruptedException {
        for (ChildProcess child : children) {
            if (child != null) {
                child.destroy();
            }
        }
    }

    /**
     * Waits for the moment a restart must cover: a committed manifest with rows of inputs from
     * {@code fromInput} on whose descriptors are not committed yet. The next checkpoint delivers
     * them, so a kill has to follow at once.
     */
    void awaitACommittedSetWithoutDescriptors(
            KafkaBrokerExtension kafka, String descriptorTopic, Path base, int fromInput, Duration timeout)
            throws Exception {
        awaitACommittedSetWithoutDescriptors(kafka, List.of(descriptorTopic), base, fromInput, timeout);
    }

    /** As above, for a job with a descriptor topic per input topic. */
    void awaitACommittedSetWithoutDescriptors(
            KafkaBrokerExtension kafka, List<String> descriptorTopics, Path base, int fromInput, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            assertThat(process.isAlive()).as("the job is still running").isTrue();
            PipelineOutput output = PipelineOutput.read(kafka, descriptorTopics, base);
            Set<String> delivered =
                    output.descriptors.stream().map(DescriptorRow::source).collect(Collectors.toSet());
            boolean undelivered = output.manifestRows.stream()
                    .anyMatch(row ->
                            TestWorkload.indexOf(row.attributes()) >= fromInput && !delivered.contains(row.source()));
            if (undelivered) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no committed blob set without its descriptors within " + timeout);
            }
            Thread.sleep(100);
        }
    }

    /** Waits until the running job has committed descriptors, failing if the process ends first. */
    void awaitCommittedDescriptors(KafkaBrokerExtension kafka, String topic, Duration timeout)
            throws InterruptedException {
        awaitCommittedDescriptors(kafka, topic, 1, timeout);
    }

    /** Waits until the running job has committed {@code count} descriptors, failing if the process ends first. */
    void awaitCommittedDescriptors(KafkaBrokerExtension kafka, String topic, int count, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (kafka.drainCommitted(topic).size() < count) {
            assertThat(process.isAlive()).as("the job is still running").isTrue();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("fewer than " + count + " committed descriptors within " + timeout);
            }
            Thread.sleep(500);
        }
    }

    /** SIGKILL: no shutdown hook, no cancel, no last checkpoint; checks that it was the JVM that died so. */
    void kill() throws InterruptedException {
        ProcessHandle handle = process.toHandle();
        assertThat(handle.info().command())
                .as("the killed process")
                .hasValueSatisfying(
                        command -> assertThat(Path.of(command).getFileName()).hasToString("java"));
        assertThat(handle.children()).as("children of the JVM").isEmpty();
        killNow();
    }

    /**
     * SIGKILL of the JVM at once, for a kill timed to an event the JVM caused (so the launcher has
     * exec'd it); checks that the process died of it (under strace, which ends with its child's
     * signal).
     */
    void killNow() throws InterruptedException {
        ProcessHandle jvm = Stream.concat(
                        Stream.of(process.toHandle()), process.toHandle().descendants())
                .filter(p -> p.info()
                        .command()
                        .filter(command -> command.endsWith("/java"))
                        .isPresent())
                .findFirst()
                .orElseThrow(() ->
                        new AssertionError("no JVM in " + process.toHandle().info()));
        jvm.destroyForcibly();
        assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("the process died").isTrue();
        assertThat(process.toHandle().isAlive()).isFalse();
        assertThat(process.exitValue())
                .as("exit code of a process killed by SIGKILL")
                .isEqualTo(SIGKILL_EXIT_CODE);
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
                .as("the process exited within " + timeout)
                .isTrue();
        return process.exitValue();
    }

    void destroy() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(1, TimeUnit.MINUTES);
        }
    }

    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }
}
