package io.blobingest.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The previous release's command line, built from its commit ({@value #COMMIT}) of this repository:
 * its sources ({@code git archive}) under {@code blob-ingest-cli/target/previous-release/<commit>},
 * built there with its own Maven wrapper ({@code package -DskipTests}) the first time a test asks,
 * then kept until {@code mvn clean}. {@link #launcherRoot()} is the directory of its {@code
 * blob-ingest} launcher, for {@link ChildProcess#start(Path, List, Path)}. A change of release
 * moves {@link #COMMIT}.
 */
final class PreviousRelease {

    /** The previous release: the last commit before lineage records and delivery runs. */
    static final String COMMIT = "ce58922";

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);

    private PreviousRelease() {}

    /** The directory holding the previous release's {@code blob-ingest} launcher and its built jar. */
    static synchronized Path launcherRoot() throws IOException, InterruptedException {
        Path root = ROOT.resolve("blob-ingest-cli/target/previous-release").resolve(COMMIT);
        Path jar = root.resolve("blob-ingest-cli/target/blob-ingest.jar");
        if (Files.isRegularFile(jar) && Files.isDirectory(root.resolve("blob-ingest-cli/target/flink-plugins"))) {
            return root;
        }
        Path log = Files.createDirectories(root.getParent()).resolve(COMMIT + "-build.log");
        if (!Files.isRegularFile(root.resolve("pom.xml"))) {
            Files.createDirectories(root);
            run(List.of("bash", "-c", "git archive " + COMMIT + " | tar -x -C '" + root + "'"), ROOT, log);
        }
        long start = System.nanoTime();
        // Offline: the release's dependencies are this build's (its poms name the same versions).
        run(
                List.of(
                        "./mvnw",
                        "-B",
                        "-q",
                        "-o",
                        "package",
                        "-DskipTests",
                        "-Dspotless.check.skip=true",
                        "-Dcheckstyle.skip=true",
                        "-pl",
                        "blob-ingest-cli",
                        "-am"),
                root,
                log);
        System.out.printf(
                "built the previous release %s in %d s%n",
                COMMIT, Duration.ofNanos(System.nanoTime() - start).toSeconds());
        return root;
    }

    private static void run(List<String> command, Path directory, Path log) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        if (!process.waitFor(BUILD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not end within " + BUILD_TIMEOUT + " (log: " + log + ")");
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(command + " exited " + process.exitValue() + ": " + Files.readString(log));
        }
    }
}
