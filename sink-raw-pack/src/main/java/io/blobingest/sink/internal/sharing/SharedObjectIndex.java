package io.blobingest.sink.internal.sharing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * A writer subtask's memory of what it stored, for exact sharing: content identity to stored
 * object, at most {@code maxEntries}, the least recently used forgotten first (a blob equal to a
 * forgotten one is simply stored again).
 *
 * <p>What may be shared: an object of the blob set being filled, whose bytes commit together with
 * the sharing row, and an object of a blob set already sealed. A sealed set commits before any set
 * sealed after it (the committer commits checkpoints in order, and a restore discards every set
 * sealed after the restored checkpoint together with the index entries it added), so no descriptor
 * becomes visible before the bytes it shares. Only sealed sets' objects go into checkpoints.
 *
 * <p>Not thread-safe.
 */
@Internal
public final class SharedObjectIndex {

    private final int maxEntries;
    private final LinkedHashMap<ContentId, StoredObject> objects;
    private String openSet;

    public SharedObjectIndex(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive, found " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.objects = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<ContentId, StoredObject> eldest) {
                return size() > SharedObjectIndex.this.maxEntries;
            }
        };
    }

    /** The stored object with this content, or null; marks it as recently used. */
    public StoredObject find(ContentId id) {
        return objects.get(id);
    }

    /** Remembers an object just stored in {@code object.blobSet()}, the set being filled. */
    public void add(StoredObject object) {
        if (!object.blobSet().equals(openSet)) {
            throw new IllegalStateException("object of blob set '" + object.blobSet() + "' added while blob set '"
                    + openSet + "' is being filled");
        }
        objects.put(object.id(), object);
    }

    /** {@code blobSet} is being filled from now on; null once it is sealed or abandoned. */
    public void filling(String blobSet) {
        this.openSet = blobSet;
    }

    /** Takes over restored objects, oldest use first, up to the bound. */
    public void restore(List<StoredObject> restored) {
        for (StoredObject object : restored) {
            objects.put(object.id(), object);
        }
    }

    /** The objects of sealed sets, least recently used first: what a checkpoint keeps. */
    public List<StoredObject> sealedObjects() {
        List<StoredObject> sealed = new ArrayList<>(objects.size());
        for (StoredObject object : objects.values()) {
            if (!object.blobSet().equals(openSet)) {
                sealed.add(object);
            }
        }
        return sealed;
    }

    public int size() {
        return objects.size();
    }
}
