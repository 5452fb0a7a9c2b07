package io.blobingest.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A standalone Flink session cluster on this machine, started the way Flink's {@code bin/} scripts
 * start one, without a Flink distribution: the classpath is the directory {@code flink.cluster.lib}
 * (the Flink artifacts from Maven Central that make up a distribution's {@code lib/}, copied there by
 * the build), the configuration a generated {@code conf/config.yaml}, and every process a child JVM:
 * the JobManager ({@code StandaloneSessionClusterEntrypoint}), the TaskManagers ({@code
 * TaskManagerRunner}) and Flink's client ({@code CliFrontend}). Their memory options come from
 * {@code BashJavaUtils}, as {@code jobmanager.sh} and {@code taskmanager.sh} get them (Flink 2.2's
 * {@code bin/config.sh}, {@code parseResourceParamsAndExportLogs}): the first result line is JVM
 * options, the second dynamic properties for the process. The JobManager binds its RPC and REST
 * ports itself, any free one ({@code jobmanager.rpc.port} and {@code rest.bind-port} 0), and the
 * ports it bound are written into the configuration of every process started after it: a port
 * picked free beforehand could be taken by another process before the JobManager binds it.
 * Everything (configuration, each process's output and log) stays under {@code home}.
 */
public final class StandaloneFlinkCluster implements AutoCloseable {

    private static final String JOB_MANAGER_CLASS =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASK_MANAGER_CLASS = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final String CLIENT_CLASS = "org.apache.flink.client.cli.CliFrontend";
    private static final String BASH_JAVA_UTILS_CLASS = "org.apache.flink.runtime.util.bash.BashJavaUtils";
    /** BashJavaUtils' prefix of a result line (BashJavaUtils.EXECUTION_PREFIX). */
    private static final String EXECUTION_RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

    private static final String HOST = "localhost";
    private static final String RPC_PORT = "jobmanager.rpc.port";
    /** Any free port: Flink binds port 0 as the operating system's choice. */
    private static final String ANY_PORT = "0";
    /** The line a JobManager's REST endpoint logs once bound (Flink 2.2 {@code RestServerEndpoint.start}). */
    private static final Pattern REST_LISTENING = Pattern.compile("Rest endpoint listening at [^\\s:]+:(\\d+)");

    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    /**
     * The JVM options of the {@code config.yaml} a Flink 2.2 distribution ships
     * ({@code env.java.opts.all}): what Flink itself needs on Java 17.
     */
    private static final String FLINK_JAVA_17_OPTIONS = String.join(
            " ",
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");
    /**
     * Small processes for a shared two-core machine: no managed memory (the job keeps its state on
     * the heap), a small network pool, a fixed direct-memory share for Arrow.
     */
    private static final Map<String, String> SMALL_MEMORY = Map.of(
            "jobmanager.memory.process.size", "768m",
            "jobmanager.memory.jvm-metaspace.size", "192m",
            "taskmanager.memory.process.size", "1024m",
            "taskmanager.memory.jvm-metaspace.size", "192m",
            "taskmanager.memory.jvm-overhead.min", "96m",
            "taskmanager.memory.framework.heap.size", "64m",
            "taskmanager.memory.task.off-heap.size", "128m",
            "taskmanager.memory.managed.size", "0",
            "taskmanager.memory.network.min", "32m",
            "taskmanager.memory.network.max", "32m");

    private final Path home;
    private final Path conf;
    private final Path logs;
    private final Map<String, String> config;
    private final String classpath;
    private FlinkRest rest;
    private final List<FlinkJvm> processes = new ArrayList<>();
    private final Map<String, FlinkJvm> taskManagers = new LinkedHashMap<>();
    private FlinkJvm jobManager;

    private StandaloneFlinkCluster(Path home, Map<String, String> config, String classpath) {
        this.home = home;
        this.conf = home.resolve("conf");
        this.logs = home.resolve("log");
        this.config = config;
        this.classpath = classpath;
    }

    /**
     * Writes the configuration under {@code home} (emptied by the caller), starts the JobManager,
     * then {@code taskManagers} TaskManagers ({@code tm-1}, {@code tm-2}, ...), each once the one
     * before is up: started together, their RPC systems can miss Pekko's fixed 10 s startup timeout
     * on a loaded machine.
     *
     * @param settings configuration entries added to (or replacing) the cluster's own
     */
    public static StandaloneFlinkCluster start(Path home, Map<String, String> settings, int taskManagers)
            throws IOException, InterruptedException {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("env.java.opts.all", FLINK_JAVA_17_OPTIONS);
        config.put("jobmanager.rpc.address", HOST);
        config.put(RPC_PORT, ANY_PORT);
        config.put("jobmanager.bind-host", HOST);
        config.put("taskmanager.bind-host", HOST);
        config.put("taskmanager.host", HOST);
        config.put("rest.address", HOST);
        config.put("rest.bind-address", HOST);
        config.put("rest.bind-port", ANY_PORT);
        // A loaded machine answers RPCs more slowly than Flink's 10 s.
        config.put("pekko.ask.timeout", "60 s");
        config.putAll(SMALL_MEMORY);
        config.putAll(settings);
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(home.resolve("log"));
        Files.createDirectories(home.resolve("plugins"));
        Files.writeString(home.resolve("conf/log4j.properties"), LOG4J_PROPERTIES, StandardCharsets.UTF_8);
        StandaloneFlinkCluster cluster = new StandaloneFlinkCluster(home, config, libraryClasspath());
        cluster.writeConfig();
        try {
            cluster.startJobManager();
            for (int i = 0; i < taskManagers; i++) {
                cluster.startTaskManager();
            }
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw new AssertionError("the standalone cluster did not start; logs: " + cluster.describeLogs(), e);
        }
    }

    /**
     * Starts one more TaskManager, its resource id {@code tm-<n>} (n counts from 1 over the
     * cluster's life), and returns once the ResourceManager has registered it.
     */
    public FlinkJvm startTaskManager() throws IOException, InterruptedException {
        String name = "tm-" + (taskManagers.size() + 1);
        // taskmanager.sh: the script's arguments go to BashJavaUtils and to the TaskManager, followed
        // by --configDir and the dynamic properties BashJavaUtils returned.
        List<String> args = List.of("-D", "taskmanager.resource-id=" + name);
        List<List<String>> params = resourceParams("GET_TM_RESOURCE_PARAMS", args);
        List<String> programArgs = new ArrayList<>(args);
        programArgs.addAll(List.of("--configDir", conf.toString()));
        programArgs.addAll(params.get(1));
        FlinkJvm taskManager = startJvm(
                name, params.get(0), javaOptions("env.java.opts.taskmanager"), TASK_MANAGER_CLASS, programArgs);
        taskManagers.put(name, taskManager);
        awaitUntil(
                () -> rest.taskManagers().contains(name),
                List.of(jobManager, taskManager),
                "TaskManager " + name + " registered",
                START_TIMEOUT);
        return taskManager;
    }

    /** The TaskManager with that resource id. */
    public FlinkJvm taskManager(String resourceId) {
        FlinkJvm taskManager = taskManagers.get(resourceId);
        if (taskManager == null) {
            throw new AssertionError(
                    "no TaskManager " + resourceId + " was started; started: " + taskManagers.keySet());
        }
        return taskManager;
    }

    /**
     * Runs Flink's command line client ({@code bin/flink}: {@code CliFrontend}, {@code
     * FLINK_CONF_DIR} set to this cluster's configuration) with {@code args} and waits until it exits.
     */
    public FlinkJvm runClient(List<String> args, Duration timeout) throws IOException, InterruptedException {
        FlinkJvm client = startJvm(
                "client-" + processes.size(), List.of(), javaOptions("env.java.opts.client"), CLIENT_CLASS, args);
        client.awaitExit(timeout);
        return client;
    }

    /** The id of the one job the cluster knows, once it has one. */
    public String awaitOnlyJob(Duration timeout) throws IOException, InterruptedException {
        AtomicReference<Set<String>> jobs = new AtomicReference<>();
        awaitUntil(
                () -> {
                    jobs.set(rest.jobs());
                    return !jobs.get().isEmpty();
                },
                List.of(jobManager),
                "a job on the cluster",
                timeout);
        if (jobs.get().size() != 1) {
            throw new AssertionError("expected one job on the cluster, found " + jobs.get());
        }
        return jobs.get().iterator().next();
    }

    /**
     * The TaskManagers running the job, once every subtask of it is running: the job is deployed
     * and {@code expected} holds for them.
     */
    public Set<String> awaitTaskManagersRunning(
            String jobId, Predicate<Set<String>> expected, String what, Duration timeout)
            throws IOException, InterruptedException {
        AtomicReference<Set<String>> running = new AtomicReference<>(Set.of());
        try {
            awaitUntil(
                    () -> {
                        running.set(rest.taskManagersRunning(jobId));
                        return !running.get().isEmpty() && expected.test(running.get());
                    },
                    List.of(jobManager),
                    "job " + jobId + " running on " + what,
                    timeout);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last seen running on " + running.get(), e);
        }
        return running.get();
    }

    /** The job's checkpoint statistics (REST {@code /jobs/<id>/checkpoints}). */
    public JsonNode checkpoints(String jobId) throws IOException, InterruptedException {
        return rest.checkpoints(jobId);
    }

    /** Cancels the job and waits until it is {@code CANCELED}. */
    public void cancel(String jobId, Duration timeout) throws IOException, InterruptedException {
        rest.cancel(jobId);
        awaitUntil(
                () -> rest.jobState(jobId).equals("CANCELED"),
                List.of(jobManager),
                "job " + jobId + " canceled",
                timeout);
    }

    /** Where the output and log of every process started so far are, for a failed test to print. */
    public String describeLogs() {
        return processes.stream().map(FlinkJvm::describeLogs).collect(Collectors.joining("\n  ", logs + "\n  ", ""));
    }

    /** Stops every process still running: TaskManagers first, then the JobManager. */
    @Override
    public void close() throws InterruptedException {
        List<FlinkJvm> reversed = new ArrayList<>(processes);
        Collections.reverse(reversed);
        for (FlinkJvm process : reversed) {
            process.stop();
        }
    }

    private void startJobManager() throws IOException, InterruptedException {
        // jobmanager.sh: the dynamic properties BashJavaUtils returned come first, then --configDir
        // and --executionMode cluster.
        List<List<String>> params = resourceParams("GET_JM_RESOURCE_PARAMS", List.of());
        List<String> programArgs = new ArrayList<>(params.get(1));
        programArgs.addAll(List.of("--configDir", conf.toString(), "--executionMode", "cluster"));
        jobManager = startJvm(
                "jobmanager", params.get(0), javaOptions("env.java.opts.jobmanager"), JOB_MANAGER_CLASS, programArgs);
        AtomicReference<String> restPort = new AtomicReference<>();
        awaitUntil(
                () -> {
                    restPort.set(boundRestPort());
                    return restPort.get() != null;
                },
                List.of(jobManager),
                "the JobManager's REST endpoint bound (\"" + REST_LISTENING.pattern() + "\" in its log)",
                START_TIMEOUT);
        rest = new FlinkRest(HOST, Integer.parseInt(restPort.get()));
        AtomicReference<String> rpcPort = new AtomicReference<>();
        awaitUntil(
                () -> {
                    rpcPort.set(rest.jobManagerConfig().get(RPC_PORT));
                    return rpcPort.get() != null && !rpcPort.get().equals(ANY_PORT);
                },
                List.of(jobManager),
                "the JobManager's RPC port from its REST endpoint (" + RPC_PORT + " in /jobmanager/config)",
                START_TIMEOUT);
        // What the TaskManagers and the client connect to: the JobManager's own ports, bound by it.
        config.put(RPC_PORT, rpcPort.get());
        config.put("rest.port", restPort.get());
        writeConfig();
    }

    /** The port of the first "Rest endpoint listening at" line of the JobManager's log; null before. */
    private String boundRestPort() throws IOException {
        Path log = logs.resolve("jobmanager.log");
        if (!Files.exists(log)) {
            return null;
        }
        Matcher matcher = REST_LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
        return matcher.find() ? matcher.group(1) : null;
    }

    private void writeConfig() throws IOException {
        Files.writeString(conf.resolve("config.yaml"), toYaml(config), StandardCharsets.UTF_8);
    }

    /**
     * BashJavaUtils' two result lines for {@code command} (GET_JM_RESOURCE_PARAMS,
     * GET_TM_RESOURCE_PARAMS), each split into its words: JVM options, then dynamic properties.
     */
    private List<List<String>> resourceParams(String command, List<String> args)
            throws IOException, InterruptedException {
        List<String> commandLine = new ArrayList<>(List.of(
                java(), "-classpath", classpath, BASH_JAVA_UTILS_CLASS, command, "--configDir", conf.toString()));
        commandLine.addAll(args);
        Path out = logs.resolve("bash-java-utils-" + processes.size() + ".out");
        FlinkJvm utils = FlinkJvm.start("bash-java-utils " + command, commandLine, Map.of(), home, out, out);
        int exitCode;
        try {
            exitCode = utils.awaitExit(START_TIMEOUT);
        } finally {
            utils.stop();
        }
        List<List<String>> results = utils.output()
                .lines()
                .filter(line -> line.startsWith(EXECUTION_RESULT_PREFIX))
                .map(line -> words(line.substring(EXECUTION_RESULT_PREFIX.length())))
                .collect(Collectors.toList());
        if (exitCode != 0 || results.size() != 2) {
            throw new AssertionError("BashJavaUtils " + command + " exited with " + exitCode + " and " + results.size()
                    + " result lines, expected 0 and 2:\n" + utils.output());
        }
        return results;
    }

    /**
     * Starts a Flink process as {@code flink-daemon.sh} / {@code bin/flink} would: JVM options, Java options, log
     * settings.
     */
    private FlinkJvm startJvm(
            String name, List<String> jvmParams, List<String> javaOptions, String mainClass, List<String> programArgs)
            throws IOException {
        Path log = logs.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(jvmParams);
        command.addAll(javaOptions);
        command.add("-Dlog.file=" + log);
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j.properties"));
        command.addAll(List.of("-classpath", classpath, mainClass));
        command.addAll(programArgs);
        Map<String, String> environment = Map.of(
                "FLINK_CONF_DIR", conf.toString(),
                "FLINK_PLUGINS_DIR", home.resolve("plugins").toString(),
                "JAVA_HOME", System.getProperty("java.home"));
        FlinkJvm process = FlinkJvm.start(name, command, environment, home, logs.resolve(name + ".out"), log);
        processes.add(process);
        return process;
    }

    /** {@code env.java.opts.all} and the process kind's own options, as config.sh joins them. */
    private List<String> javaOptions(String kindKey) {
        List<String> options = new ArrayList<>(words(config.getOrDefault("env.java.opts.all", "")));
        options.addAll(words(config.getOrDefault(kindKey, "")));
        return options;
    }

    private interface Condition {
        boolean holds() throws IOException, InterruptedException;
    }

    /**
     * Polls {@code condition} until it holds; a REST request the JobManager does not answer yet
     * counts as not yet. Fails if one of the {@code watched} processes ends first, or after {@code
     * timeout}.
     */
    private void awaitUntil(Condition condition, List<FlinkJvm> watched, String what, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        while (true) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            for (FlinkJvm process : watched) {
                if (!process.isAlive()) {
                    throw new AssertionError(process.name() + " ended while waiting for " + what + "; "
                            + process.describeLogs() + ":\n" + process.output());
                }
            }
            if (System.nanoTime() > deadline) {
                AssertionError error = new AssertionError("timed out after " + timeout + " waiting for " + what);
                if (last != null) {
                    error.addSuppressed(last);
                }
                throw error;
            }
            Thread.sleep(500);
        }
    }

    /** The jars of {@code flink.cluster.lib}, sorted, as config.sh's constructFlinkClassPath lists lib/. */
    private static String libraryClasspath() throws IOException {
        String lib = System.getProperty("flink.cluster.lib");
        if (lib == null || !Files.isDirectory(Path.of(lib))) {
            throw new IllegalStateException("system property flink.cluster.lib names no directory: " + lib
                    + " (the build copies the cluster's jars there in the package phase)");
        }
        try (Stream<Path> jars = Files.list(Path.of(lib))) {
            return jars.filter(jar -> jar.toString().endsWith(".jar"))
                    .map(Path::toString)
                    .sorted()
                    .collect(Collectors.joining(File.pathSeparator));
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> words(String line) {
        return Arrays.stream(line.trim().split("\\s+"))
                .filter(word -> !word.isEmpty())
                .collect(Collectors.toList());
    }

    /** Flat keys, every value a single-quoted YAML string (Flink parses its type from the text). */
    private static String toYaml(Map<String, String> config) {
        StringBuilder yaml = new StringBuilder("# Written by StandaloneFlinkCluster.\n");
        config.forEach((key, value) ->
                yaml.append(key).append(": '").append(value.replace("'", "''")).append("'\n"));
        return yaml.toString();
    }

    /**
     * Flink's conf/log4j.properties for daemons: everything into the process's log.file, appended
     * (Flink's RPC system configures log4j again from its own class loader; a truncating appender
     * would lose everything logged before).
     */
    private static final String LOG4J_PROPERTIES = String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.file.ref = MainAppender",
            "appender.main.name = MainAppender",
            "appender.main.type = File",
            "appender.main.append = true",
            "appender.main.fileName = ${sys:log.file}",
            "appender.main.layout.type = PatternLayout",
            "appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
            "");
}
