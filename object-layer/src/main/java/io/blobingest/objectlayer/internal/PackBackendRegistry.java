package io.blobingest.objectlayer.internal;

import static io.blobingest.objectlayer.pack.PackTexts.describe;
import static io.blobingest.objectlayer.pack.PackTexts.quote;

import io.blobingest.objectlayer.PackBackend;
import io.blobingest.objectlayer.pack.CorruptPackException;
import io.blobingest.objectlayer.pack.PackEnvelope;
import io.blobingest.objectlayer.pack.PackFormatException;
import io.blobingest.objectlayer.pack.RawPackFormat;
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
     * The backend for the {@code pack_type} and {@code pack_version} that the envelope's metadata
     * names.
     *
     * @throws CorruptPackException if {@code pack_type} is absent or not a string
     * @throws UnsupportedPackException if no backend reads that type and version
     */
    PackBackend lookup(PackEnvelope envelope) throws PackFormatException {
        Object packType = envelope.metadata().get(RawPackFormat.META_PACK_TYPE);
        if (!(packType instanceof String type)) {
            throw new CorruptPackException(
                    envelope.file(), envelope.metadataStart(), "bad pack_type", "a JSON string", describe(packType));
        }
        Object packVersion = envelope.metadata().get(RawPackFormat.META_PACK_VERSION);
        if (packVersion instanceof Integer version) {
            PackBackend backend = backends.get(new Key(type, version));
            if (backend != null) {
                return backend;
            }
        }
        boolean typeKnown =
                backends.keySet().stream().anyMatch(key -> key.packType().equals(type));
        throw new UnsupportedPackException(
                envelope.file(),
                envelope.metadataStart(),
                typeKnown ? "unknown pack_version" : "unknown pack_type",
                "one of "
                        + backends.keySet().stream().map(Key::toString).sorted().toList(),
                quote(type) + " v" + describe(packVersion));
    }
}
