package io.blobingest.placement;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.util.List;
import java.util.Objects;

/**
 * An {@code ingest}-mode external record that passed every check needing no I/O: its bytes must be
 * fetched before they can be placed. What the fetch may still find wrong (spec.md section 4): {@code
 * too-large} for a whole object, {@code not-found}, {@code bad-range}, {@code fetch-failed}.
 *
 * @param record the input as it arrived
 * @param location the object to read: the normalized {@code blob.uri} without its query and
 *     fragment. Flink's file systems locate an object by scheme, authority and path only, and a
 *     query may carry a secret (a presigned signature), so it is dropped here: it never reaches a
 *     file system, a log line, a dead-letter detail or a checkpoint.
 * @param position first byte of the range, from {@code blob.position} (0 when absent)
 * @param size length of the range, from {@code blob.size}; {@code (0, 0)} means the whole object
 * @param attributes the headers to pass through
 */
public record ExternalFetch(BlobRecord record, String location, long position, long size, List<Attribute> attributes)
        implements ClassifiedRecord {

    public ExternalFetch {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(location, "location");
        attributes = List.copyOf(attributes);
    }

    /** True for {@code (0, 0)}: the range is the whole object, whatever its length. */
    public boolean isWholeObject() {
        return position == 0 && size == 0;
    }
}
