package io.blobingest.sink.manifest;

import io.blobingest.objectlayer.DescriptorRow;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A row of a descriptor manifest and where it lies, so that it can be read again.
 *
 * @param manifest the manifest's location, as a Flink path
 * @param index the row's place in the manifest, from 0
 */
@PublicEvolving
public record ManifestRow(String manifest, long index, DescriptorRow row) {}
