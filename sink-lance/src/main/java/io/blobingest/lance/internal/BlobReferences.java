package io.blobingest.lance.internal;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns a committed descriptor into the Blob v2 input that makes Lance reference our bytes where
 * they are: a Packed entry as its pack's URI and the entry's absolute byte range (from the pack's
 * footer, the entry table spec.md section 2 defines), a Dedicated sidecar as its URI, an External
 * descriptor as its URI and range. Only Inline bytes, which have no file of ours, are handed to
 * Lance to store.
 *
 * <p>Footers are cached until {@link #forgetFooters()}: the rows of one blob set arrive together.
 */
final class BlobReferences {

    private final URI base;
    private final BlobStorage storage;
    private final RawPackReader packReader = RawPackReader.withAllFeatures();
    private final Map<URI, RawPackFooter> footers = new HashMap<>();

    BlobReferences(URI base, BlobStorage storage) {
        this.base = base;
        this.storage = storage;
    }

    LanceBlob resolve(DescriptorRow row) throws IOException {
        BlobDescriptor blob = row.blob();
        return switch (blob.kind()) {
            case INLINE -> LanceBlob.bytes(row.inlineData());
            case EXTERNAL ->
                blob.position() == 0 && blob.size() == 0
                        ? LanceBlob.wholeObject(blob.blobUri())
                        : LanceBlob.range(blob.blobUri(), blob.position(), blob.size());
            case DEDICATED -> LanceBlob.range(sidecar(row).toString(), 0, blob.size());
            case PACKED ->
                blob.isObjectBacked()
                        ? packEntry(row)
                        : LanceBlob.range(sidecar(row).toString(), blob.position(), blob.size());
        };
    }

    void forgetFooters() {
        footers.clear();
    }

    private LanceBlob packEntry(DescriptorRow row) throws IOException {
        URI pack = sidecar(row);
        RawPackFooter footer = footers.get(pack);
        if (footer == null) {
            try (ReadableObject object = storage.open(pack)) {
                footer = packReader.readFooter(object);
            }
            footers.put(pack, footer);
        }
        long entryReference = row.blob().position();
        long index = entryReference & ~Long.MIN_VALUE;
        if (index >= footer.entryCount()) {
            throw new IOException(pack + ": descriptor of " + row.source() + " names entry " + index + ", the pack has "
                    + footer.entryCount() + " entries");
        }
        int entry = (int) index;
        long length = footer.entryLength(entry);
        if (length != row.blob().size()) {
            throw new IOException(pack + ": entry " + entry + " of " + row.source() + " has " + length
                    + " bytes in the pack's entry table, the descriptor says "
                    + row.blob().size());
        }
        if (row.crc32c() != null && Integer.toUnsignedLong(footer.entryCrc32c(entry)) != row.crc32c()) {
            throw new IOException(pack + ": entry " + entry + " of " + row.source() + " has crc32c "
                    + Integer.toUnsignedLong(footer.entryCrc32c(entry))
                    + " in the pack's entry table, the descriptor says "
                    + row.crc32c());
        }
        return LanceBlob.range(pack.toString(), footer.entryOffset(entry), length);
    }

    private URI sidecar(DescriptorRow row) {
        return BlobSets.sidecarUri(base, row.blobSet(), row.blob().blobId());
    }
}
