package io.blobingest.lance.internal;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ReadOptions;

/**
 * Opening the output's dataset, creating it (empty, with its schema and blob base) on first use,
 * and keeping its columns those the rows are written with.
 *
 * <p>Why the columns are checked by name and order: a fragment is written with the writer's batch
 * and Lance numbers its columns by position, with no check at commit. A batch with a column the
 * dataset lacks would lose that column's values without an error, and a batch whose columns are in
 * another order would be read back as the wrong columns.
 */
final class LanceDatasets {

    /** A writer racing every other writer of the job needs at most one attempt per writer; a few suffice. */
    private static final int PREPARE_ATTEMPTS = 4;

    private LanceDatasets() {}

    static Dataset open(LanceSettings settings, String datasetUri, BufferAllocator allocator) {
        return Dataset.open(
                allocator,
                datasetUri,
                new ReadOptions.Builder()
                        .setStorageOptions(settings.storageOptions())
                        .build());
    }

    /** Opens the dataset, or creates it when there is none at the URI yet. */
    static Dataset openOrCreate(LanceSettings settings, String datasetUri, BufferAllocator allocator) {
        try {
            return open(settings, datasetUri, allocator);
        } catch (RuntimeException notThere) {
            try {
                return Dataset.create(allocator, datasetUri, settings.schema(), settings.writeParams());
            } catch (RuntimeException createFailed) {
                createFailed.addSuppressed(notThere);
                throw createFailed;
            }
        }
    }

    /**
     * Makes {@code datasetUri} ready for fragments of {@code settings}' columns: creates it, or adds
     * the columns it lacks. Parallel writers may race to do the same for a topic's new dataset, and
     * Lance lets only one of two such commits succeed: a failed attempt is retried on the dataset
     * as it then is, where the other writer's change is found done.
     *
     * @throws IllegalStateException in one line, when the dataset's columns differ from the rows'
     */
    static void prepare(LanceSettings settings, String datasetUri, BufferAllocator allocator) {
        for (int attempt = 1; ; attempt++) {
            try (Dataset dataset = openOrCreate(settings, datasetUri, allocator)) {
                addMissingColumns(dataset, settings.schema(), datasetUri);
                return;
            } catch (IllegalStateException differs) {
                throw differs;
            } catch (RuntimeException raced) {
                if (attempt == PREPARE_ATTEMPTS) {
                    throw raced;
                }
            }
        }
    }

    /**
     * Adds, at the dataset's end, the columns of {@code schema} it lacks (null in every row it
     * has): a dataset an earlier version created, or one {@code sink.lance.columns} now names more
     * columns for. One metadata-only commit, none when nothing is missing.
     *
     * @throws IllegalStateException in one line, when the dataset's columns are not the first of
     *     {@code schema}'s, by name and type, in order
     */
    static void addMissingColumns(Dataset dataset, Schema schema, String datasetUri) {
        List<Field> present = dataset.getSchema().getFields();
        requirePrefix(present, schema.getFields(), datasetUri);
        if (present.size() < schema.getFields().size()) {
            dataset.addColumns(schema.getFields()
                    .subList(present.size(), schema.getFields().size()));
        }
    }

    private static void requirePrefix(List<Field> present, List<Field> wanted, String datasetUri) {
        boolean prefix = present.size() <= wanted.size();
        for (int i = 0; prefix && i < present.size(); i++) {
            prefix = sameColumn(present.get(i), wanted.get(i));
        }
        if (!prefix) {
            throw new IllegalStateException("Lance dataset " + datasetUri + " has columns " + describe(present)
                    + ", this job writes " + describe(wanted) + ": a dataset only takes new columns at its end, so"
                    + " list sink.lance.columns as the dataset has them (new ones last) or write to a new dataset");
        }
    }

    /** The Blob v2 column reads back as Lance's own type, not the write-side struct: its name decides. */
    private static boolean sameColumn(Field present, Field wanted) {
        return present.getName().equals(wanted.getName())
                && (wanted.getName().equals(LanceRowSchema.BLOB)
                        || present.getType().equals(wanted.getType()));
    }

    private static List<String> names(List<Field> fields) {
        return fields.stream().map(Field::getName).toList();
    }

    private static List<String> describe(List<Field> fields) {
        return fields.stream()
                .map(f -> f.getName().equals(LanceRowSchema.BLOB) ? f.getName() : f.getName() + " " + f.getType())
                .toList();
    }
}
