package io.blobingest.lance.internal;

import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;

/** Opening the output's dataset, creating it (empty, with its schema and blob base) on first use. */
final class LanceDatasets {

    private LanceDatasets() {}

    static Dataset open(LanceSettings settings, BufferAllocator allocator) {
        return Dataset.open(
                allocator,
                settings.datasetUri(),
                new ReadOptions.Builder()
                        .setStorageOptions(settings.storageOptions())
                        .build());
    }

    /** Opens the dataset, or creates it when there is none at the URI yet. */
    static Dataset openOrCreate(LanceSettings settings, BufferAllocator allocator) {
        try {
            return open(settings, allocator);
        } catch (RuntimeException notThere) {
            try {
                return Dataset.create(allocator, settings.datasetUri(), LanceRowSchema.SCHEMA, settings.writeParams());
            } catch (RuntimeException createFailed) {
                createFailed.addSuppressed(notThere);
                throw createFailed;
            }
        }
    }
}
