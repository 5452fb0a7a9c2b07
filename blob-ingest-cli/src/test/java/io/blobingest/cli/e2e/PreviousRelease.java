package io.blobingest.cli.e2e;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.util.FileUtils;

/**
 * The previous release's command line, built from its commit ({@value #COMMIT}) of this repository
 * and kept like a released artifact: in the local Maven repository, under {@code
 * io/blobingest/previous-release/<commit>} (the build passes its path as {@value #CACHE_PROPERTY}).
 * The first test on a machine that asks extracts its sources ({@code git archive}) and builds them
 * with their own Maven wrapper ({@code package -DskipTests}, about 100 s), in a directory of its own
 * that it then renames into place, so concurrent builds on one machine never see half a release.
 * {@link #launcherRoot()} is the directory of its {@code blob-ingest} launcher, for {@link
 * ChildProcess#start(Path, List, Path)}. A change of release moves {@link #COMMIT}.
 */
final class PreviousRelease {

    /** The previous release: the last commit before lineage records and delivery runs. */
    static final String COMMIT = "ce58922";

    static final String CACHE_PROPERTY = "blob-ingest.previous-release.cache";

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);

    private PreviousRelease() {}

    /** The directory holding the previous release's {@code blob-ingest} launcher and its built jar. */
    static synchronized Path launcherRoot() throws IOException, InterruptedException {
        Path cache = Path.of(System.getProperty(
                CACHE_PROPERTY,
                Path.of(System.getProperty("user.home"), ".m2/repository/io/blobingest/previous-release")
                        .toString()));
        Path root = cache.resolve(COMMIT);
        if (isBuilt(root)) {
            return root;
        }
        Path building = Files.createDirectories(cache)
                .resolve(COMMIT + ".building-" + ProcessHandle.current().pid());
        Path log = cache.resolve(COMMIT + "-build.log");
        Files.createDirectories(building);
        run(List.of("bash", "-c", "git archive " + COMMIT + " | tar -x -C '" + building + "'"), ROOT, log);
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
                building,
                log);
        System.out.printf(
                "built the previous release %s in %d s into %s%n",
                COMMIT, Duration.ofNanos(System.nanoTime() - start).toSeconds(), root);
        try {
            Files.move(building, root, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            // Another build on this machine finished first: its copy is as good as this one.
            FileUtils.deleteDirectory(building.toFile());
        }
        if (!isBuilt(root)) {
            throw new AssertionError("the previous release at " + root + " has no built launcher (log: " + log + ")");
        }
        return root;
    }

    private static boolean isBuilt(Path root) {
        return Files.isRegularFile(root.resolve("blob-ingest-cli/target/blob-ingest.jar"))
                && Files.isDirectory(root.resolve("blob-ingest-cli/target/flink-plugins"));
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
