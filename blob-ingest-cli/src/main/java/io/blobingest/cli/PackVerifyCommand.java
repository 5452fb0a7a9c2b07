package io.blobingest.cli;

import io.blobingest.cli.internal.FileTrees;
import io.blobingest.job.launch.Locations;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.pack.PackFault;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackVerifier;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pack verify}: checks every pack's header, footer and payload crcs, and payload SHA-256s
 * where a footer records them ({@code entry_sha256}).
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
                + " payload crcs (and SHA-256s where the footer records entry_sha256) included. Exit 0 if all are"
                + " sound, 1 with one line per fault otherwise.")
final class PackVerifyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "PATH",
            description = "Pack files or directories: paths or URIs (s3://bucket/prefix).")
    List<String> paths;

    @Mixin
    StorageOptions storageOptions;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        RawPackVerifier verifier = new RawPackVerifier(RawPackReader.withAllFeatures());
        int packs = 0;
        int skipped = 0;
        List<PackFault> faults = new ArrayList<>();
        for (String location : paths) {
            BlobStorage storage = storageOptions.storageFor(location);
            for (URI file : sidecars(location)) {
                try (ReadableObject object = storage.open(file)) {
                    if (!looksLikePack(object)) {
                        skipped++;
                        continue;
                    }
                    packs++;
                    faults.addAll(verifier.verify(object));
                }
            }
        }
        for (PackFault fault : faults) {
            stdout.println("FAULT " + fault.file() + " offset " + fault.offset() + ": " + fault.message());
        }
        stdout.printf("%d packs checked, %d faults, %d non-pack sidecars skipped%n", packs, faults.size(), skipped);
        return faults.isEmpty() ? BlobIngestCli.EXIT_OK : BlobIngestCli.EXIT_FAULT;
    }

    /** The file itself, or the .blob files below a directory (an S3 prefix), listed through Flink's file system. */
    private List<URI> sidecars(String location) throws IOException {
        Path root = new Path(Locations.toUri(location));
        FileStatus status;
        try {
            status = root.getFileSystem().getFileStatus(root);
        } catch (FileNotFoundException e) {
            throw new ParameterException(spec.commandLine(), "no such file or directory: " + location);
        }
        if (!status.isDir()) {
            return List.of(root.toUri());
        }
        return FileTrees.files(root).stream()
                .map(FileStatus::getPath)
                .filter(file -> file.getName().endsWith(BlobSets.SIDECAR_SUFFIX))
                .map(Path::toUri)
                .toList();
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
