package io.blobingest.placement;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.internal.ExternalUris;
import io.blobingest.placement.internal.UriPrefixAllowList;
import java.io.Serializable;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns an input record into a {@link PlacedBlob}, a {@link DeadLetter} or, for an external blob
 * in {@code ingest} mode, an {@link ExternalFetch}, applying spec.md section 4's checks that need no
 * I/O in the contract's order, so that a record with several faults gets the first code:
 * {@code null-value}, {@code bad-range}, {@code bad-uri}, {@code uri-not-allowed}, {@code too-large},
 * {@code bad-header}, then placement. The fetch stage applies the remaining checks once it knows
 * the object, and the job checks {@code descriptor-too-large}, the last of the contract's codes, on
 * every placed blob before the sink.
 *
 * <p>Choices the contract leaves open (docs/spec.md section 4): a range without {@code blob.uri} is
 * {@code bad-range}; {@code blob.mode=reference} without {@code blob.uri} is {@code bad-uri}; when a
 * {@code blob.*} header repeats, the last one counts (Kafka's {@code lastHeader}); {@code too-large}
 * applies whenever the size is known before fetching (the value's length, or an explicit external
 * range), in either mode.
 */
public final class BlobRecordClassifier implements Serializable {

    private static final long serialVersionUID = 1L;

    private final PlacementPolicy placementPolicy;
    private final UriPrefixAllowList allowedUris;
    private final long maxBlobBytes;
    private final boolean forceIngest;
    private final List<HeaderColumn> headerColumns;

    /**
     * @param allowedUriPrefixes {@code external.allowed-prefixes}; empty refuses every external blob
     * @param maxBlobBytes larger blobs are dead-lettered as {@code too-large}
     */
    public BlobRecordClassifier(PlacementPolicy placementPolicy, List<String> allowedUriPrefixes, long maxBlobBytes) {
        this(placementPolicy, allowedUriPrefixes, maxBlobBytes, false, List.of());
    }

    /**
     * @param forceIngest fetch and place every external blob, also those in {@code reference} mode
     *     (a backfill); {@code blob.mode} is still checked, a bad one stays {@code bad-uri}
     * @param headerColumns headers that must parse as their column's type ({@code bad-header})
     */
    public BlobRecordClassifier(
            PlacementPolicy placementPolicy,
            List<String> allowedUriPrefixes,
            long maxBlobBytes,
            boolean forceIngest,
            List<HeaderColumn> headerColumns) {
        if (maxBlobBytes < 0) {
            throw new IllegalArgumentException("maximum blob size must be >= 0 bytes, found " + maxBlobBytes);
        }
        this.placementPolicy = Objects.requireNonNull(placementPolicy, "placementPolicy");
        this.allowedUris = new UriPrefixAllowList(allowedUriPrefixes);
        this.maxBlobBytes = maxBlobBytes;
        this.forceIngest = forceIngest;
        this.headerColumns = List.copyOf(headerColumns);
    }

    /**
     * Refuses an allow-list that reaches the job's own storage: a prefix that is a file system's
     * root, or that covers one of {@code ownDirectories} (the base, the checkpoint directory). An
     * External blob from there could copy or name the job's own packs, manifests or checkpoints.
     *
     * @param ownDirectories what each directory is ("sink.raw-pack.base-path") to its absolute URI
     * @throws IllegalArgumentException naming the prefix and the directory
     */
    public void requireOutside(Map<String, String> ownDirectories) {
        List<String> roots = allowedUris.fileSystemRoots();
        if (!roots.isEmpty()) {
            throw new IllegalArgumentException("allowed URI prefix " + roots.get(0)
                    + " is the root of the file system, which holds this job's own files: name the directories"
                    + " External blobs come from");
        }
        ownDirectories.forEach((what, uri) -> {
            List<String> covering = allowedUris.covering(ExternalUris.normalize(uri));
            if (!covering.isEmpty()) {
                throw new IllegalArgumentException("allowed URI prefix " + covering.get(0) + " reaches " + what + " ("
                        + uri + "), this job's own files: External blobs must come from elsewhere");
            }
        });
    }

    public ClassifiedRecord classify(BlobRecord record) {
        try {
            return place(record);
        } catch (Rejection rejection) {
            return new DeadLetter(record, rejection.code, rejection.getMessage());
        }
    }

    private ClassifiedRecord place(BlobRecord record) throws Rejection {
        Attribute uriHeader = BlobHeaders.last(record.headers(), BlobHeaders.URI);
        boolean external = uriHeader != null;
        if (record.value() == null && !external) {
            throw new Rejection(
                    DeadLetterCode.NULL_VALUE, "value is null and there is no " + BlobHeaders.URI + " header");
        }
        ByteRange range = range(record, external);
        boolean reference = referenceMode(record, external) && !forceIngest;
        String uri = external ? normalizedUri(uriHeader.value()) : null;
        if (external && !allowedUris.allows(uri)) {
            throw new Rejection(
                    DeadLetterCode.URI_NOT_ALLOWED,
                    BlobHeaders.URI + " matches none of the " + allowedUris.size()
                            + " allowed prefixes (external.allowed-prefixes)");
        }
        long knownSize = external ? range.size() : record.value().length;
        if ((!external || !range.isWholeObject()) && Long.compareUnsigned(knownSize, maxBlobBytes) > 0) {
            throw new Rejection(
                    DeadLetterCode.TOO_LARGE,
                    "blob is " + Long.toUnsignedString(knownSize) + " bytes, the maximum is " + maxBlobBytes
                            + " bytes");
        }
        List<Attribute> attributes = passedThrough(record);
        for (HeaderColumn column : headerColumns) {
            byte[] value = column.lastValue(attributes);
            if (value != null) {
                try {
                    column.parse(value);
                } catch (IllegalArgumentException e) {
                    throw new Rejection(
                            DeadLetterCode.BAD_HEADER,
                            "header " + column.header() + " (column " + column.name() + ", "
                                    + column.type().optionName() + "): " + e.getMessage());
                }
            }
        }
        if (!external) {
            return new PlacedBlob(record, placementPolicy.place(knownSize), record.value(), attributes, null);
        }
        if (!reference) {
            return new ExternalFetch(
                    record, ExternalUris.withoutQueryAndFragment(uri), range.position(), range.size(), attributes);
        }
        return new PlacedBlob(
                record,
                Placement.EXTERNAL,
                null,
                attributes,
                BlobDescriptor.external(uri, range.position(), range.size()));
    }

    private static ByteRange range(BlobRecord record, boolean external) throws Rejection {
        Attribute position = BlobHeaders.last(record.headers(), BlobHeaders.POSITION);
        Attribute size = BlobHeaders.last(record.headers(), BlobHeaders.SIZE);
        if (position == null && size == null) {
            return ByteRange.WHOLE_OBJECT;
        }
        if (position == null || size == null) {
            throw new Rejection(
                    DeadLetterCode.BAD_RANGE,
                    "only " + (position == null ? BlobHeaders.SIZE : BlobHeaders.POSITION) + " is given: send both "
                            + BlobHeaders.POSITION + " and " + BlobHeaders.SIZE + " or neither");
        }
        long start = unsignedDecimal(position);
        long length = unsignedDecimal(size);
        if (Long.compareUnsigned(start, -1L - length) > 0) {
            throw new Rejection(
                    DeadLetterCode.BAD_RANGE,
                    BlobHeaders.POSITION + " " + Long.toUnsignedString(start) + " + " + BlobHeaders.SIZE + " "
                            + Long.toUnsignedString(length) + " overflows u64");
        }
        if (!external) {
            throw new Rejection(
                    DeadLetterCode.BAD_RANGE,
                    BlobHeaders.POSITION + " and " + BlobHeaders.SIZE
                            + " select bytes of an external object, but there is no " + BlobHeaders.URI + " header");
        }
        return new ByteRange(start, length);
    }

    private static long unsignedDecimal(Attribute header) throws Rejection {
        try {
            return BlobHeaders.parseUnsignedDecimal(header.value());
        } catch (NumberFormatException e) {
            throw new Rejection(DeadLetterCode.BAD_RANGE, header.name() + ": " + e.getMessage());
        }
    }

    private static boolean referenceMode(BlobRecord record, boolean external) throws Rejection {
        Attribute mode = BlobHeaders.last(record.headers(), BlobHeaders.MODE);
        if (mode == null || matches(mode, BlobHeaders.MODE_INGEST)) {
            return false;
        }
        if (!matches(mode, BlobHeaders.MODE_REFERENCE)) {
            throw new Rejection(
                    DeadLetterCode.BAD_URI,
                    BlobHeaders.MODE + " must be " + BlobHeaders.MODE_INGEST + " or " + BlobHeaders.MODE_REFERENCE
                            + ", found " + BlobHeaders.printable(mode.value()));
        }
        if (!external) {
            throw new Rejection(
                    DeadLetterCode.BAD_URI,
                    BlobHeaders.MODE + "=" + BlobHeaders.MODE_REFERENCE + " needs a " + BlobHeaders.URI
                            + " header to reference");
        }
        return true;
    }

    private static boolean matches(Attribute header, String text) {
        return header.value() != null && text.equals(new String(header.value(), StandardCharsets.UTF_8));
    }

    private static String normalizedUri(byte[] value) throws Rejection {
        if (value == null) {
            throw new Rejection(DeadLetterCode.BAD_URI, BlobHeaders.URI + " header has no value");
        }
        try {
            return ExternalUris.normalize(BlobHeaders.decodeUtf8(value));
        } catch (CharacterCodingException e) {
            throw new Rejection(DeadLetterCode.BAD_URI, BlobHeaders.URI + " is not valid UTF-8");
        } catch (IllegalArgumentException e) {
            throw new Rejection(DeadLetterCode.BAD_URI, e.getMessage());
        }
    }

    private static List<Attribute> passedThrough(BlobRecord record) {
        List<Attribute> attributes = new ArrayList<>(record.headers().size());
        for (Attribute header : record.headers()) {
            if (!BlobHeaders.RESERVED.contains(header.name())) {
                attributes.add(header);
            }
        }
        return attributes;
    }

    /** A byte range of an external object; (0, 0) is the whole object. */
    private record ByteRange(long position, long size) {
        static final ByteRange WHOLE_OBJECT = new ByteRange(0, 0);

        boolean isWholeObject() {
            return position == 0 && size == 0;
        }
    }

    /** A record refused with a contract code; carries no stack trace, it is an outcome, not a failure. */
    private static final class Rejection extends Exception {
        private static final long serialVersionUID = 1L;
        private final DeadLetterCode code;

        Rejection(DeadLetterCode code, String detail) {
            super(detail, null, false, false);
            this.code = code;
        }
    }
}
