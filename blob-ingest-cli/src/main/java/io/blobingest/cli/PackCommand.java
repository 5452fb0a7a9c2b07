package io.blobingest.cli;

import io.blobingest.job.launch.Locations;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pack write | inspect | verify}: Raw Pack files by hand. */
@Command(
        name = "pack",
        mixinStandardHelpOptions = true,
        description = "Write, inspect and verify Raw Pack v1 files.",
        subcommands = {PackCommand.Write.class, PackCommand.Inspect.class, PackVerifyCommand.class})
final class PackCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a pack command is required");
    }

    static RawPackFooter readFooter(Path file) throws IOException {
        return readFooter(new LocalBlobStorage(), file.toUri());
    }

    static RawPackFooter readFooter(BlobStorage storage, URI file) throws IOException {
        try (ReadableObject object = storage.open(file)) {
            return RawPackReader.withAllFeatures().readFooter(object);
        }
    }

    @Command(
            name = "write",
            mixinStandardHelpOptions = true,
            description = "Pack files (directories recursively, in name order) into one Raw Pack and"
                    + " print each input's entry reference, size and crc32c.")
    static final class Write implements java.util.concurrent.Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--out", required = true, description = "The pack file to create.")
        Path out;

        @Option(
                names = "--blob-set",
                defaultValue = "local",
                description = "blob_set recorded in the metadata (default: ${DEFAULT-VALUE}).")
        String blobSet;

        @Option(
                names = "--blob-id",
                defaultValue = "1",
                description = "Sidecar id recorded in the metadata (default: ${DEFAULT-VALUE}).")
        long blobId;

        @Parameters(arity = "1..*", paramLabel = "INPUT", description = "Files or directories to pack.")
        List<Path> inputs;

        @Override
        public Integer call() throws IOException {
            RawPackMetadata metadata;
            try {
                metadata = new RawPackMetadata(blobSet, blobId, CliArguments.createdBy());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--blob-set/--blob-id: " + e.getMessage());
            }
            List<Path> files = expand(inputs);
            PrintWriter stdout = spec.commandLine().getOut();
            boolean written = false;
            try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
                RawPackWriter writer = RawPackWriter.create(stream, metadata);
                for (Path file : files) {
                    try (InputStream in = Files.newInputStream(file)) {
                        writer.append(in);
                    }
                }
                writer.finish();
                written = true;
            } finally {
                if (!written) {
                    Files.deleteIfExists(out);
                }
            }
            // Report what the pack itself says, read back through the reader, not what we meant to write.
            RawPackFooter footer = readFooter(out);
            stdout.println("position\tsize\tcrc32c\tinput");
            for (int i = 0; i < footer.entryCount(); i++) {
                stdout.printf(
                        "%s\t%d\t%d\t%s%n",
                        Long.toUnsignedString(RawPackFormat.entryReference(i)),
                        footer.entryLength(i),
                        Integer.toUnsignedLong(footer.entryCrc32c(i)),
                        files.get(i));
            }
            stdout.printf("wrote %s: %d entries, %d bytes%n", out, footer.entryCount(), footer.fileLength());
            return BlobIngestCli.EXIT_OK;
        }

        private List<Path> expand(List<Path> paths) throws IOException {
            List<Path> files = new ArrayList<>();
            for (Path path : paths) {
                if (Files.isDirectory(path)) {
                    try (Stream<Path> walk = Files.walk(path)) {
                        walk.filter(Files::isRegularFile).sorted().forEach(files::add);
                    }
                } else if (Files.isRegularFile(path)) {
                    files.add(path);
                } else {
                    throw new ParameterException(spec.commandLine(), "no such file or directory: " + path);
                }
            }
            return files;
        }
    }

    @Command(
            name = "inspect",
            mixinStandardHelpOptions = true,
            description = "Print a pack's header, metadata and an entry summary (with each entry's SHA-256 when"
                    + " the footer records entry_sha256).")
    static final class Inspect implements java.util.concurrent.Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(
                names = "--entries",
                defaultValue = "20",
                description = "Entries to list (default: ${DEFAULT-VALUE}; -1 = all).")
        int entries;

        @Parameters(index = "0", paramLabel = "FILE", description = "The pack file: a path or a URI (s3://bucket/key).")
        String file;

        @Mixin
        StorageOptions storageOptions;

        @Override
        public Integer call() throws IOException {
            PrintWriter stdout = spec.commandLine().getOut();
            RawPackFooter footer = readFooter(storageOptions.storageFor(file), Locations.toUri(file));
            stdout.printf("file            %s%n", footer.file());
            stdout.printf("length          %d%n", footer.fileLength());
            stdout.printf("format          Raw Pack v%d%n", RawPackFormat.CURRENT_VERSION);
            stdout.printf("footer_start    %d%n", footer.footerStart());
            stdout.printf("entry_count     %d%n", footer.entryCount());
            stdout.printf("payload_bytes   %d%n", footer.payloadBytes());
            stdout.println("metadata");
            Map<String, Object> metadata = new TreeMap<>(footer.metadata());
            if (footer.hasEntrySha256()) {
                // One hash per entry: listed with the entries, not as one line of them all.
                metadata.put(RawPackFormat.META_ENTRY_SHA256, "one per entry, listed below");
            }
            metadata.forEach((key, value) -> stdout.printf("  %-20s %s%n", key, value));
            int shown = entries < 0 ? footer.entryCount() : Math.min(entries, footer.entryCount());
            stdout.println("entries");
            stdout.println("  index\tposition\toffset\tlength\tcrc32c" + (footer.hasEntrySha256() ? "\tsha256" : ""));
            for (int i = 0; i < shown; i++) {
                stdout.printf(
                        "  %d\t%s\t%d\t%d\t%d%s%n",
                        i,
                        Long.toUnsignedString(RawPackFormat.entryReference(i)),
                        footer.entryOffset(i),
                        footer.entryLength(i),
                        Integer.toUnsignedLong(footer.entryCrc32c(i)),
                        footer.hasEntrySha256() ? "\t" + sha256(footer, i) : "");
            }
            if (shown < footer.entryCount()) {
                stdout.printf("  ... %d more%n", footer.entryCount() - shown);
            }
            return BlobIngestCli.EXIT_OK;
        }

        /** Entry {@code index}'s recorded SHA-256 in hex, or "-" where its writer did not know it. */
        private static String sha256(RawPackFooter footer, int index) {
            return footer.entrySha256(index).map(HexFormat.of()::formatHex).orElse("-");
        }
    }
}
