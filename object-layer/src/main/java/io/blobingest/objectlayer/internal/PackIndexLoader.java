package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.PackBackend;
import io.blobingest.objectlayer.PackBackend.PackIndex;
import io.blobingest.objectlayer.pack.PackEnvelope;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.net.URI;
import java.util.Set;

/**
 * Gives the index of a pack: from the footer cache, or by reading the pack's envelope, refusing
 * features this reader lacks, and handing the footer to the backend its metadata names.
 */
final class PackIndexLoader {

    private final PackBackendRegistry backends;
    private final Set<String> supportedFeatures;
    private final FooterCache cache;

    PackIndexLoader(PackBackendRegistry backends, Set<String> supportedFeatures, FooterCache cache) {
        this.backends = backends;
        this.supportedFeatures = Set.copyOf(supportedFeatures);
        this.cache = cache;
    }

    /** The index of the pack at {@code location}, open as {@code object}, {@code fileLength} bytes long. */
    PackIndex load(URI location, ReadableObject object, long fileLength) throws IOException {
        PackIndex cached = cache.get(location, fileLength);
        if (cached != null) {
            return cached;
        }
        PackEnvelope envelope = PackEnvelope.read(object, fileLength);
        envelope.requiredFeatures(supportedFeatures);
        PackBackend backend = backends.lookup(envelope);
        PackIndex index = backend.readIndex(envelope.file(), fileLength, envelope.lastBytes());
        cache.put(location, fileLength, index);
        return index;
    }
}
