package io.blobingest.objectlayer.pack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Small helpers to build packs in memory and damage them. */
final class TestPacks {

    static final RawPackMetadata METADATA = new RawPackMetadata("set-1", 7, "blob-ingest-test");

    private TestPacks() {}

    /** A pack written by {@link RawPackWriter} holding {@code payloads} in order. */
    static byte[] write(byte[]... payloads) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        for (byte[] payload : payloads) {
            writer.append(payload);
        }
        writer.finish();
        return out.toByteArray();
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code length} deterministic, non-repeating-looking bytes. */
    static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        int x = seed * 0x9E3779B9 + 1;
        for (int i = 0; i < length; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            bytes[i] = (byte) x;
        }
        return bytes;
    }

    /** A copy of {@code pack} with bit {@code bit} of byte {@code offset} flipped. */
    static byte[] flipBit(byte[] pack, long offset, int bit) {
        byte[] copy = pack.clone();
        copy[Math.toIntExact(offset)] ^= (byte) (1 << bit);
        return copy;
    }

    static byte[] truncate(byte[] pack, long length) {
        return Arrays.copyOf(pack, Math.toIntExact(length));
    }
}
