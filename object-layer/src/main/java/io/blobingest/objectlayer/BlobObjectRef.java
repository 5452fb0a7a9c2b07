package io.blobingest.objectlayer;

import java.net.URI;
import java.util.Objects;

/**
 * What a descriptor points at once resolved against its {@link ResolveContext}: one object in
 * storage and how to find the blob inside it. Resolving reads nothing; the object may not even
 * exist.
 */
public sealed interface BlobObjectRef {

    /** The object holding the blob. */
    URI location();

    /**
     * An entry of an indexed pack (object-backed Packed). {@code entryReference} is opaque here: the
     * pack's backend interprets it once the footer says which pack type this is.
     *
     * @param size the blob's logical size
     */
    record PackEntry(URI location, long entryReference, long size) implements BlobObjectRef {
        public PackEntry {
            Objects.requireNonNull(location, "location");
        }
    }

    /**
     * A byte range of a legacy raw Packed sidecar, which has no footer. {@code offset} is a u64 as
     * a legacy reader takes it: an object-backed entry reference read this way lies past any
     * file's end, and planning it fails.
     */
    record LegacyPackedRange(URI location, long offset, long size) implements BlobObjectRef {
        public LegacyPackedRange {
            Objects.requireNonNull(location, "location");
        }
    }

    /** A Dedicated sidecar: the whole file is the blob, {@code size} is its expected length. */
    record DedicatedFile(URI location, long size) implements BlobObjectRef {
        public DedicatedFile {
            Objects.requireNonNull(location, "location");
        }
    }

    /** An External object, or the range {@code [position, position + size)} of it. */
    record ExternalObject(URI location, long position, long size) implements BlobObjectRef {
        public ExternalObject {
            Objects.requireNonNull(location, "location");
        }

        /** {@code position = 0, size = 0} means the whole object. */
        public boolean wholeObject() {
            return position == 0 && size == 0;
        }
    }
}
