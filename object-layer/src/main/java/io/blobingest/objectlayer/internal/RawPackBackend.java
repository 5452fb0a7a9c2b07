package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.DescriptorMismatchException;
import io.blobingest.objectlayer.PackBackend;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackReader;
import java.io.IOException;
import java.util.Set;

/**
 * Raw Pack v1 ({@code pack_type = "raw"}, {@code pack_version = 1}): an entry's physical bytes are
 * its logical bytes, checked against the entry's crc32c when decoded.
 */
final class RawPackBackend implements PackBackend {

    private final RawPackReader reader;

    RawPackBackend(Set<String> supportedFeatures) {
        this.reader = new RawPackReader(supportedFeatures);
    }

    @Override
    public String packType() {
        return RawPackFormat.PACK_TYPE;
    }

    @Override
    public int packVersion() {
        return RawPackFormat.PACK_VERSION;
    }

    @Override
    public PackIndex readIndex(String file, long fileLength, byte[] lastBytes) throws IOException {
        // No object: lastBytes cover the footer, so the reader must not need to read. A plan checks
        // crc32c only, so the cached index does not keep the entry hashes.
        return new Index(reader.parseFooter(file, fileLength, lastBytes, null).withoutEntrySha256());
    }

    private static final class Index implements PackIndex {
        private final RawPackFooter footer;

        Index(RawPackFooter footer) {
            this.footer = footer;
        }

        @Override
        public BlobReadPlan plan(BlobObjectRef.PackEntry entry) throws DescriptorMismatchException {
            int index = entryIndex(entry.entryReference());
            long length = footer.entryLength(index);
            if (length != entry.size()) {
                throw new DescriptorMismatchException(
                        footer.file(),
                        footer.entryTableOffset(index),
                        "entry " + index + " length differs from the descriptor's size",
                        "length " + Long.toUnsignedString(entry.size()),
                        "length " + length);
            }
            long offset = footer.entryOffset(index);
            return new BlobReadPlan(entry, new PhysicalRange(entry.location(), offset, length), length, physical -> {
                RawPackReader.verifyPayload(footer, index, physical, 0, physical.length);
                return physical;
            });
        }

        private int entryIndex(long entryReference) throws DescriptorMismatchException {
            long index;
            try {
                index = RawPackFormat.entryIndex(entryReference);
            } catch (IllegalArgumentException e) {
                throw new DescriptorMismatchException(
                        footer.file(),
                        footer.footerStart(),
                        "bad entry reference",
                        "bit 63 set and bits 62..32 zero (raw v1)",
                        String.format("0x%016x", entryReference));
            }
            if (index >= footer.entryCount()) {
                throw new DescriptorMismatchException(
                        footer.file(),
                        footer.footerStart(),
                        "entry reference names no entry",
                        "an entry index below " + footer.entryCount(),
                        "entry index " + index);
            }
            return (int) index;
        }
    }
}
