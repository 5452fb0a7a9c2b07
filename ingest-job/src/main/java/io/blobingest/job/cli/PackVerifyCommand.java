package io.blobingest.job.cli;

import io.blobingest.objectlayer.pack.PackFault;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackVerifier;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pack verify}: checks every pack's header, footer and payload crcs.
 *
 * <p>A directory holds Dedicated sidecars beside packs; those are raw bytes with no structure to
 * check. A {@code .blob} file counts as a pack when its first or last 8 bytes are the magic, so a
 * pack with one damaged magic is still checked (and reported); one with neither is reported as
 * skipped, not as sound.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Check packs (files, or directories searched recursively for .blob files),"
                + " payload crcs included. Exit 0 if all are sound, 1 with one line per fault otherwise.")
final class PackVerifyCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Pack files or directories.")
    List<Path> paths;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        RawPackVerifier verifier = new RawPackVerifier(RawPackReader.withAllFeatures());
        LocalBlobStorage storage = new LocalBlobStorage();
        int packs = 0;
        int skipped = 0;
        List<PackFault> faults = new ArrayList<>();
        for (Path file : sidecars()) {
            try (ReadableObject object = storage.open(file.toUri())) {
                if (!looksLikePack(object)) {
                    skipped++;
                    continue;
                }
                packs++;
                faults.addAll(verifier.verify(object));
            }
        }
        for (PackFault fault : faults) {
            stdout.println("FAULT " + fault.file() + " offset " + fault.offset() + ": " + fault.message());
        }
        stdout.printf("%d packs checked, %d faults, %d non-pack sidecars skipped%n", packs, faults.size(), skipped);
        return faults.isEmpty() ? BlobIngestCli.EXIT_OK : BlobIngestCli.EXIT_FAULT;
    }

    private List<Path> sidecars() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".blob"))
                            .sorted()
                            .forEach(files::add);
                }
            } else if (Files.isRegularFile(path)) {
                files.add(path);
            } else {
                throw new ParameterException(spec.commandLine(), "no such file or directory: " + path);
            }
        }
        return files;
    }

    private static boolean looksLikePack(ReadableObject object) throws IOException {
        long length = object.length();
        if (length < RawPackFormat.MAGIC_LENGTH) {
            return false;
        }
        byte[] magic = new byte[RawPackFormat.MAGIC_LENGTH];
        object.readFully(0, magic, 0, magic.length);
        if (Arrays.equals(magic, RawPackFormat.MAGIC)) {
            return true;
        }
        object.readFully(length - magic.length, magic, 0, magic.length);
        return Arrays.equals(magic, RawPackFormat.MAGIC);
    }
}
