package io.blobingest.objectlayer.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.blobingest.objectlayer.PackBackend;
import io.blobingest.objectlayer.pack.PackTexts;
import io.blobingest.objectlayer.pack.UnsupportedPackException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The pack backends a reader knows, keyed by {@code (pack_type, pack_version)}. Immutable. */
final class PackBackendRegistry {

    private record Key(String packType, int packVersion) {
        @Override
        public String toString() {
            return packType + " v" + packVersion;
        }
    }

    private final Map<Key, PackBackend> backends;

    PackBackendRegistry(List<PackBackend> backends) {
        Map<Key, PackBackend> byKey = new LinkedHashMap<>();
        for (PackBackend backend : backends) {
            Key key = new Key(backend.packType(), backend.packVersion());
            if (byKey.putIfAbsent(key, backend) != null) {
                throw new IllegalArgumentException("two pack backends for " + key);
            }
        }
        this.backends = Map.copyOf(byKey);
    }

    /**
     * The backend for a pack whose metadata (at {@code metadataOffset} of {@code file}) names
     * {@code packType} and {@code packVersion}.
     *
     * @throws UnsupportedPackException if no backend reads that type and version
     */
    PackBackend lookup(String file, long metadataOffset, String packType, JsonNode packVersion)
            throws UnsupportedPackException {
        if (packVersion != null && packVersion.isInt()) {
            PackBackend backend = backends.get(new Key(packType, packVersion.intValue()));
            if (backend != null) {
                return backend;
            }
        }
        boolean typeKnown = backends.keySet().stream().anyMatch(key -> key.packType().equals(packType));
        throw new UnsupportedPackException(
                file, metadataOffset, typeKnown ? "unknown pack_version" : "unknown pack_type",
                "one of " + backends.keySet().stream().map(Key::toString).sorted().toList(),
                PackTexts.quote(packType) + " v" + packVersion);
    }
}
