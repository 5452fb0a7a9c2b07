package io.blobingest.bench;

/**
 * What a blob-ingest run left on storage: its sidecars (Raw Packs and Dedicated sidecars) and the
 * descriptors its manifests committed.
 *
 * @param sidecarBytes bytes of every sidecar file under the base, footers included; manifests not
 * @param sidecars sidecar files under the base
 * @param storedRows Packed and Dedicated descriptors
 * @param sharedRows of those, the ones naming the same object (blob set, sidecar, position) as an
 *     earlier one: blobs exact sharing stored no bytes for
 */
public record StoredFigures(long sidecarBytes, long sidecars, long storedRows, long sharedRows) {}
