package io.blobingest.sink.internal.state;

import io.blobingest.sink.internal.sharing.StoredObject;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * The objects a writer subtask's exact sharing remembered at a checkpoint, all of blob sets sealed
 * by then, least recently used first.
 *
 * @param basePath the storage root the objects' blob sets are under: a restore with another base
 *     forgets them, their sets are not there
 */
@Internal
public record SharedObjectsState(String basePath, List<StoredObject> objects) implements WriterState {

    public SharedObjectsState {
        Objects.requireNonNull(basePath, "basePath");
        objects = List.copyOf(objects);
    }
}
