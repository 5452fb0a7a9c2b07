package io.blobingest.cli;

import io.blobingest.job.launch.Locations;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.ResolveContext;
import io.blobingest.objectlayer.storage.BlobStorage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code blob cat}: one blob's logical bytes through the Object Layer. */
@Command(
        name = "blob",
        mixinStandardHelpOptions = true,
        description = "Read blobs through the Object Layer.",
        subcommands = {BlobCommand.Cat.class})
final class BlobCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a blob command is required");
    }

    @Command(
            name = "cat",
            mixinStandardHelpOptions = true,
            description = "Write one blob's logical bytes to stdout. Packed positions with bit 63 set are"
                    + " entry references into a Raw Pack; others are legacy byte offsets.")
    static final class Cat implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(
                names = "--kind",
                defaultValue = "packed",
                description = "packed, dedicated or external (default: ${DEFAULT-VALUE}).")
        String kind;

        @Option(
                names = "--base",
                description =
                        "Base directory or URI of the blob sets, e.g. s3://bucket/prefix" + " (packed, dedicated).")
        String base;

        @Option(names = "--set", description = "The blob set (packed, dedicated).")
        String blobSet;

        @Option(names = "--id", description = "The sidecar id, blob_id (packed, dedicated).")
        Long blobId;

        @Option(
                names = "--position",
                defaultValue = "0",
                description = "The descriptor's position, unsigned decimal (default: ${DEFAULT-VALUE}).")
        String position;

        @Option(
                names = "--size",
                description = "The descriptor's size in bytes (external: 0 with position 0 = whole object).")
        Long size;

        @Option(names = "--uri", description = "The External blob's absolute URI (file:, s3:).")
        String uri;

        @Option(
                names = {"-o", "--output"},
                description = "Write to this file instead of stdout.")
        Path output;

        @Mixin
        StorageOptions storageOptions;

        @Override
        public Integer call() throws IOException {
            BlobKind blobKind = parseKind();
            BlobDescriptor descriptor = descriptor(blobKind);
            ResolveContext context = blobKind == BlobKind.EXTERNAL
                    ? ResolveContext.noBlobSet()
                    : ResolveContext.forBlobSet(Locations.toUri(base), blobSet, Set.of());
            BlobStorage storage = storageOptions.storageFor(blobKind == BlobKind.EXTERNAL ? uri : base);
            byte[] bytes;
            try (ObjectLayer objectLayer = ObjectLayer.builder(storage).build()) {
                BlobReadPlan plan = objectLayer.plan(objectLayer.resolve(descriptor, context));
                bytes = objectLayer.decode(plan, objectLayer.read(plan));
            }
            if (output == null) {
                OutputStream stdout = System.out;
                stdout.write(bytes);
                stdout.flush();
            } else {
                Files.write(output, bytes);
            }
            return BlobIngestCli.EXIT_OK;
        }

        private BlobKind parseKind() {
            return switch (kind.toLowerCase(Locale.ROOT)) {
                case "packed" -> BlobKind.PACKED;
                case "dedicated" -> BlobKind.DEDICATED;
                case "external" -> BlobKind.EXTERNAL;
                default -> throw usage("--kind must be packed, dedicated or external, found '" + kind + "'");
            };
        }

        private BlobDescriptor descriptor(BlobKind blobKind) {
            long parsedPosition;
            try {
                parsedPosition = Long.parseUnsignedLong(position);
            } catch (NumberFormatException e) {
                throw usage("--position must be an unsigned decimal u64, found '" + position + "'");
            }
            try {
                if (blobKind == BlobKind.EXTERNAL) {
                    require(uri != null, "--kind external needs --uri");
                    return BlobDescriptor.external(uri, parsedPosition, size == null ? 0 : size);
                }
                require(
                        base != null && blobSet != null && blobId != null && size != null,
                        "--kind " + kind + " needs --base, --set, --id and --size");
                return blobKind == BlobKind.PACKED
                        ? BlobDescriptor.packed(parsedPosition, size, blobId)
                        : new BlobDescriptor(BlobKind.DEDICATED, parsedPosition, size, blobId, "");
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }

        private void require(boolean condition, String message) {
            if (!condition) {
                throw usage(message);
            }
        }

        private ParameterException usage(String message) {
            return new ParameterException(spec.commandLine(), message);
        }
    }
}
