package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobObjectRef.DedicatedFile;
import io.blobingest.objectlayer.BlobObjectRef.ExternalObject;
import io.blobingest.objectlayer.BlobObjectRef.LegacyPackedRange;
import io.blobingest.objectlayer.BlobObjectRef.PackEntry;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.DescriptorMismatchException;
import io.blobingest.objectlayer.PackBackend.PackIndex;
import io.blobingest.objectlayer.PayloadDecoder;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns an object reference into a read plan from metadata alone: a pack's footer for a pack
 * entry, the file's length for everything else. Never reads payload.
 */
final class ReadPlanner {

    private final PackIndexLoader packs;

    ReadPlanner(PackIndexLoader packs) {
        this.packs = packs;
    }

    /**
     * Plans every ref of one object: reads its length once and, if any ref is a pack entry, its
     * footer at most once (none on a cache hit).
     *
     * @param refs refs whose location is {@code location}
     * @param object {@code location}, open
     */
    List<BlobReadPlan> plan(List<BlobObjectRef> refs, URI location, ReadableObject object) throws IOException {
        long fileLength = object.length();
        PackIndex pack = null;
        List<BlobReadPlan> plans = new ArrayList<>(refs.size());
        for (BlobObjectRef ref : refs) {
            if (ref instanceof PackEntry entry) {
                if (pack == null) {
                    pack = packs.load(location, object, fileLength);
                }
                plans.add(pack.plan(entry));
            } else {
                plans.add(planFromLength(ref, object, fileLength));
            }
        }
        return plans;
    }

    private static BlobReadPlan planFromLength(BlobObjectRef ref, ReadableObject object, long fileLength)
            throws DescriptorMismatchException {
        if (ref instanceof LegacyPackedRange range) {
            requireInside(object, "legacy raw Packed range", range.offset(), range.size(), fileLength);
            return identity(ref, range.offset(), range.size());
        }
        if (ref instanceof DedicatedFile file) {
            if (file.size() != fileLength) {
                throw new DescriptorMismatchException(
                        object.location(),
                        0,
                        "Dedicated sidecar length differs from the descriptor's size",
                        "length " + Long.toUnsignedString(file.size()),
                        "length " + fileLength);
            }
            return identity(ref, 0, fileLength);
        }
        ExternalObject external = (ExternalObject) ref;
        if (external.wholeObject()) {
            return identity(ref, 0, fileLength);
        }
        requireInside(object, "External range", external.position(), external.size(), fileLength);
        return identity(ref, external.position(), external.size());
    }

    private static BlobReadPlan identity(BlobObjectRef ref, long offset, long length) {
        return new BlobReadPlan(
                ref, new PhysicalRange(ref.location(), offset, length), length, PayloadDecoder.IDENTITY);
    }

    /** {@code offset} and {@code size} are u64: an entry reference taken as an offset lies past the end. */
    private static void requireInside(ReadableObject object, String what, long offset, long size, long fileLength)
            throws DescriptorMismatchException {
        boolean inside =
                Long.compareUnsigned(offset, fileLength) <= 0 && Long.compareUnsigned(size, fileLength - offset) <= 0;
        if (!inside) {
            throw new DescriptorMismatchException(
                    object.location(),
                    offset,
                    what + " lies beyond the end of the file",
                    "offset + size <= " + fileLength + " (the file's length)",
                    "offset " + Long.toUnsignedString(offset) + " + size " + Long.toUnsignedString(size));
        }
    }
}
