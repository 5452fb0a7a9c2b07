package io.blobingest.cli.e2e;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A small file system of its own, a tmpfs mounted for the test (which needs root; {@link #mount}
 * is empty otherwise), that a test fills to its last byte with a ballast file and frees again: a
 * real disk full, writes failing with {@code No space left on device}.
 */
final class SmallDisk implements AutoCloseable {

    private static final int MIB = 1024 * 1024;

    private final Path directory;

    private SmallDisk(Path directory) {
        this.directory = directory;
    }

    /** A tmpfs of {@code mebibytes} MiB mounted on {@code directory}; empty if mounting is not allowed here. */
    static Optional<SmallDisk> mount(Path directory, int mebibytes) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        int exit = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + mebibytes + "m", "tmpfs", directory.toString()));
        return exit == 0 ? Optional.of(new SmallDisk(directory)) : Optional.empty();
    }

    Path directory() {
        return directory;
    }

    /** Writes {@code ballast} until the disk has no byte left; returns how many it wrote. */
    static long fill(Path ballast) throws IOException {
        long written = 0;
        try (OutputStream out = Files.newOutputStream(ballast)) {
            for (int chunk : new int[] {MIB, 4096, 1}) {
                byte[] bytes = new byte[chunk];
                try {
                    while (true) {
                        out.write(bytes);
                        out.flush();
                        written += chunk;
                    }
                } catch (IOException full) {
                    if (!String.valueOf(full.getMessage()).contains("No space left on device")) {
                        throw full;
                    }
                }
            }
        }
        return written;
    }

    /** Deletes {@code ballast}; false if there was none. */
    static boolean free(Path ballast) throws IOException {
        return Files.deleteIfExists(ballast);
    }

    /**
     * Unmounts the file system; what it held is gone. Lazily: a stream a task left open must not
     * fail the test, the kernel detaches the mount at once and frees it when the last file closes.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        int exit = run(List.of("umount", "--lazy", directory.toString()));
        if (exit != 0) {
            throw new IOException("umount " + directory + " exited with " + exit);
        }
    }

    private static int run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException(command + " did not finish within a minute");
        }
        return process.exitValue();
    }
}
