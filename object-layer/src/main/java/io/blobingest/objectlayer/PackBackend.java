package io.blobingest.objectlayer;

import java.io.IOException;

/**
 * Reads one pack type at one version (SPI). Every pack shares the container of spec.md section 2:
 * header, payload, entry table, JSON metadata naming {@code pack_type} and {@code pack_version},
 * and the 32-byte tail. The Object Layer reads and checks that {@link
 * io.blobingest.objectlayer.pack.PackEnvelope envelope} (tail, footer crc32c, metadata, required
 * features), then hands the footer to the backend registered for that {@code (pack_type,
 * pack_version)}; a new pack type plugs in through {@link ObjectLayer.Builder#packBackend} without
 * touching the core, as long as it keeps that envelope.
 *
 * <p>Implementations are stateless or immutable and thread-safe.
 */
public interface PackBackend {

    /** The metadata's {@code pack_type}, e.g. {@code raw}. */
    String packType();

    /** The metadata's {@code pack_version}. */
    int packVersion();

    /**
     * Validates a footer and indexes its entries. Reads nothing: {@code lastBytes} are the pack's
     * last bytes, ending at {@code fileLength}, and reach back at least to the footer's start
     * (the whole file when the pack is small).
     *
     * @param file the pack's location, for error messages
     */
    PackIndex readIndex(String file, long fileLength, byte[] lastBytes) throws IOException;

    /** A parsed footer: immutable, thread-safe and cached by the Object Layer. */
    interface PackIndex {

        /**
         * The plan of one entry, from the footer alone.
         *
         * @throws DescriptorMismatchException if the reference names no entry or the entry's size
         *     differs from {@code entry.size()}
         */
        BlobReadPlan plan(BlobObjectRef.PackEntry entry) throws IOException;
    }
}
