package io.blobingest.objectlayer;

import static io.blobingest.objectlayer.BlobFixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.pack.CorruptPackException;
import io.blobingest.objectlayer.pack.HandBuiltPack;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.UnsupportedPackException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The footer's pack_type and pack_version pick the backend; unknown ones and damaged envelopes are refused. */
class PackBackendTest extends ObjectLayerTestBase {

    private static final String SET = "plug";

    private BlobObjectRef entryRef(int index, long size) {
        return new BlobObjectRef.PackEntry(fixtures.sidecar(SET, 1), RawPackFormat.entryReference(index), size);
    }

    private byte[] readEntry(ObjectLayer reader, int index, long size) throws IOException {
        BlobReadPlan plan = reader.plan(entryRef(index, size));
        return reader.decode(plan, reader.read(plan));
    }

    @Test
    void aRegisteredBackendReadsItsPackTypeWithoutChangesToTheCore() throws IOException {
        byte[] first = randomBytes(40, 1);
        byte[] second = randomBytes(70, 2);
        fixtures.write(SET, 1, pack("reversed", 1, "[]", reversed(first), reversed(second)));

        try (ObjectLayer extended = ObjectLayer.builder(storage)
                .packBackend(new ReversedPackBackend())
                .build()) {
            assertThat(readEntry(extended, 1, 70)).isEqualTo(second);
            List<byte[]> blobs = extended.readAll(List.of(BlobRequest.of(
                    BlobDescriptor.packed(RawPackFormat.entryReference(0), 40, 1), fixtures.objectPackSet(SET))));
            assertThat(blobs).containsExactly(first);
        }
    }

    @Test
    void anUnknownPackTypeIsRefusedNamingFileAndOffset() throws IOException {
        fixtures.write(SET, 1, pack("reversed", 1, "[]", new byte[4]));

        assertThatThrownBy(() -> layer.plan(entryRef(0, 4)))
                .isInstanceOf(UnsupportedPackException.class)
                .hasMessage(fixtures.sidecarPath(SET, 1) + ": unknown pack_type at offset 44:"
                        + " expected one of [raw v1], found \"reversed\" v1");
    }

    @Test
    void anUnknownVersionOfAKnownPackTypeIsRefused() throws IOException {
        fixtures.write(SET, 1, pack("raw", 2, "[\"blob_object_pack\"]", new byte[4]));

        assertThatThrownBy(() -> layer.plan(entryRef(0, 4)))
                .isInstanceOf(UnsupportedPackException.class)
                .hasMessageEndingWith("unknown pack_version at offset 44: expected one of [raw v1], found \"raw\" v2");
    }

    @Test
    void aPackRequiringAnUnknownFeatureIsRefused() throws IOException {
        fixtures.write(SET, 1, pack("raw", 1, "[\"blob_object_pack\",\"blob_zstd\"]", new byte[4]));

        assertThatThrownBy(() -> layer.plan(entryRef(0, 4)))
                .isInstanceOf(UnsupportedPackException.class)
                .hasMessageEndingWith("unknown required feature at offset 44:"
                        + " expected one of the features this reader supports [blob_object_pack, blob_shared_object],"
                        + " found \"blob_zstd\"");
    }

    @Test
    void aDamagedFooterReportsItsCrcMismatchBeforeAnyTypeIsTrusted() throws IOException {
        byte[] pack = pack("raw", 1, "[\"blob_object_pack\"]", new byte[4]);
        int typeAt = indexOf(pack, "raw".getBytes());
        pack[typeAt] = 'z';
        fixtures.write(SET, 1, pack);

        assertThatThrownBy(() -> layer.plan(entryRef(0, 4)))
                .isInstanceOf(CorruptPackException.class)
                .hasMessageStartingWith(fixtures.sidecarPath(SET, 1) + ": footer crc32c mismatch at offset 20");
    }

    @Test
    void aFileWithoutATailIsRefusedAsCorrupt() throws IOException {
        fixtures.write(SET, 1, randomBytes(200, 3));

        assertThatThrownBy(() -> layer.plan(entryRef(0, 4)))
                .isInstanceOf(CorruptPackException.class)
                .hasMessageContaining(
                        "bad tail magic (a truncated or unfinished pack ends without it) at offset 192: expected"
                                + " \"BLOBPACK\"");
    }

    @Test
    void aFileShorterThanAnyPackIsRefusedAsTruncated() throws IOException {
        fixtures.write(SET, 1, new byte[47]);

        assertThatThrownBy(() -> layer.plan(entryRef(0, 4)))
                .isInstanceOf(CorruptPackException.class)
                .hasMessage(fixtures.sidecarPath(SET, 1)
                        + ": truncated pack at offset 0: expected at least 48 bytes, found 47 bytes");
    }

    @Test
    void twoBackendsForTheSameTypeAndVersionAreRefused() {
        ObjectLayer.Builder builder = ObjectLayer.builder(storage)
                .packBackend(new ReversedPackBackend())
                .packBackend(new ReversedPackBackend());

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two pack backends for reversed v1");
    }

    /** A pack container of any type and version holding {@code storedEntries}, each with its crc32c. */
    private static byte[] pack(String packType, int packVersion, String requiredFeaturesJson, byte[]... storedEntries) {
        HandBuiltPack pack = new HandBuiltPack()
                .metadata("{\"pack_type\":\"" + packType + "\",\"pack_version\":" + packVersion
                        + ",\"required_features\":" + requiredFeaturesJson + ",\"blob_set\":\"s\",\"blob_id\":1}");
        for (byte[] entry : storedEntries) {
            pack.entry(entry);
        }
        return pack.build();
    }

    private static byte[] reversed(byte[] bytes) {
        byte[] copy = bytes.clone();
        for (int i = 0, j = copy.length - 1; i < j; i++, j--) {
            byte b = copy[i];
            copy[i] = copy[j];
            copy[j] = b;
        }
        return copy;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    /**
     * A pack type of this test only, written against the public SPI: entries are stored with their
     * bytes reversed, so decoding must reverse them back.
     */
    private static final class ReversedPackBackend implements PackBackend {
        @Override
        public String packType() {
            return "reversed";
        }

        @Override
        public int packVersion() {
            return 1;
        }

        @Override
        public PackIndex readIndex(String file, long fileLength, byte[] lastBytes) {
            ByteBuffer bytes = ByteBuffer.wrap(lastBytes).order(ByteOrder.LITTLE_ENDIAN);
            long windowStart = fileLength - lastBytes.length;
            int tail = lastBytes.length - RawPackFormat.TAIL_LENGTH;
            long footerStart = bytes.getLong(tail);
            int entryCount = bytes.getInt(tail + RawPackFormat.TAIL_ENTRY_COUNT_OFFSET);
            long[] offsets = new long[entryCount];
            long[] lengths = new long[entryCount];
            for (int i = 0; i < entryCount; i++) {
                int row = (int) (footerStart - windowStart) + i * RawPackFormat.ENTRY_LENGTH;
                offsets[i] = bytes.getLong(row);
                lengths[i] = bytes.getLong(row + 8);
            }
            return entry -> {
                int index = (int) RawPackFormat.entryIndex(entry.entryReference());
                return new BlobReadPlan(
                        entry,
                        new PhysicalRange(entry.location(), offsets[index], lengths[index]),
                        lengths[index],
                        PackBackendTest::reversed);
            };
        }
    }
}
