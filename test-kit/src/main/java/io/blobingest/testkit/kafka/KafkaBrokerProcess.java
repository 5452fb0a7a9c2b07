package io.blobingest.testkit.kafka;

import io.blobingest.broker.EmbeddedKafkaBroker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker in a child JVM, so that a test can kill it as an operator's {@code kill -9}
 * or a crashed machine would: one combined KRaft node (broker and controller) on fixed ports of
 * 127.0.0.1, its storage in a directory the test owns, formatted once, with the broker settings of
 * {@link EmbeddedKafkaBroker} (transactions with one node, 48 MiB records, no automatic topics).
 * {@link #kill()} is SIGKILL: no controlled shutdown, no flush, the logs as the crash left them;
 * {@link #start()} starts the node again on the same storage and ports, which recovers its logs.
 * The child runs Kafka's own main class ({@code kafka.Kafka}) with this JVM's class path.
 */
final class KafkaBrokerProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final int SIGKILL_EXIT_CODE = 128 + 9;

    private final Path directory;
    private final int port;
    private final Path properties;
    private int starts;
    private Process process;

    private KafkaBrokerProcess(Path directory, int port, Path properties) {
        this.directory = directory;
        this.port = port;
        this.properties = properties;
    }

    /** Formats a node's storage under {@code directory} and starts it; returns once it accepts clients. */
    static KafkaBrokerProcess start(Path directory) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        int port = freePort();
        int controllerPort = freePort();
        Path properties = directory.resolve("server.properties");
        Files.writeString(properties, serverProperties(directory.resolve("logs"), port, controllerPort));
        KafkaBrokerProcess broker = new KafkaBrokerProcess(directory, port, properties);
        broker.runToCompletion(
                "format",
                List.of(
                        "kafka.tools.StorageTool",
                        "format",
                        "--cluster-id",
                        Uuid.randomUuid().toString(),
                        "--config",
                        properties.toString()));
        broker.start();
        return broker;
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Starts the node on its storage and ports (again, after {@link #kill()}); returns once it accepts clients. */
    void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the broker on " + bootstrapServers() + " is running already");
        }
        starts++;
        process = java(List.of("kafka.Kafka", properties.toString()), log("broker-" + starts))
                .start();
        awaitReady();
    }

    /** SIGKILL of the broker's JVM; returns once it is dead. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the broker's JVM " + process.pid() + " survived SIGKILL for a minute");
        }
        if (process.exitValue() != SIGKILL_EXIT_CODE) {
            throw new IllegalStateException("the broker's JVM had exited before the kill, with " + process.exitValue()
                    + "; see " + log("broker-" + starts));
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                "5000",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                "5000"))) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the broker exited with " + process.exitValue()
                            + " while starting; see " + log("broker-" + starts));
                }
                try {
                    if (!admin.describeCluster()
                            .nodes()
                            .get(5, TimeUnit.SECONDS)
                            .isEmpty()) {
                        return;
                    }
                } catch (Exception notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the broker on " + bootstrapServers() + " did not accept clients within "
                                        + READY_TIMEOUT + "; see " + log("broker-" + starts),
                                notYet);
                    }
                }
                Thread.sleep(200);
            }
        }
    }

    private void runToCompletion(String name, List<String> mainAndArgs) throws IOException, InterruptedException {
        Process tool = java(mainAndArgs, log(name)).start();
        if (!tool.waitFor(2, TimeUnit.MINUTES)) {
            tool.destroyForcibly();
            throw new IOException(mainAndArgs + " did not finish within 2 minutes; see " + log(name));
        }
        if (tool.exitValue() != 0) {
            throw new IOException(mainAndArgs + " exited with " + tool.exitValue() + ": "
                    + Files.readString(log(name), StandardCharsets.UTF_8));
        }
    }

    private static ProcessBuilder java(List<String> mainAndArgs, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path")));
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    }

    private Path log(String name) {
        return directory.resolve(name + ".log");
    }

    private static String serverProperties(Path logs, int port, int controllerPort) {
        List<String> lines = new ArrayList<>(List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + logs));
        EmbeddedKafkaBroker.BROKER_SETTINGS.forEach((key, value) -> lines.add(key + "=" + value));
        return String.join("\n", lines) + "\n";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
