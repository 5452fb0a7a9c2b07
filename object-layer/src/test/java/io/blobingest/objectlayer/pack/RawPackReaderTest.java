package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.METADATA;
import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.pack.RecordingObject.Read;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawPackReaderTest {

    private static final String FILE = "/data/set-1/1.blob";
    private static final int WINDOW = 64 * 1024;

    private final RawPackReader reader = RawPackReader.withAllFeatures();

    @Test
    void readsAPackWithoutEntries() throws IOException {
        byte[] pack = TestPacks.write();

        RawPackFooter footer = reader.readFooter(new RecordingObject(FILE, pack));

        assertThat(footer.entryCount()).isZero();
        assertThat(footer.footerStart()).isEqualTo(16);
        assertThat(footer.fileLength()).isEqualTo(pack.length);
        assertThat(footer.payloadBytes()).isZero();
        assertThat(footer.file()).isEqualTo(FILE);
        assertThat(footer.metadata())
                .containsEntry("pack_type", "raw")
                .containsEntry("pack_version", 1)
                .containsEntry("blob_set", "set-1")
                .containsEntry("blob_id", 7)
                .containsEntry("entry_count", 0)
                .containsEntry("payload_bytes", 0)
                .containsEntry("created_by", "blob-ingest-test");
        assertThat(footer.requiredFeatures()).containsExactly("blob_object_pack");
        assertThat(footer.blobSet()).isEqualTo("set-1");
        assertThat(footer.blobId()).isEqualTo(7);
    }

    @Test
    void roundTripsEmptyAndNonEmptyEntries() throws IOException {
        byte[][] payloads = {new byte[0], ascii("hello"), new byte[0], bytes(1000, 5), new byte[0]};
        byte[] pack = TestPacks.write(payloads);
        RecordingObject object = new RecordingObject(FILE, pack);

        RawPackFooter footer = reader.readFooter(object);

        assertThat(footer.entryCount()).isEqualTo(payloads.length);
        assertThat(footer.footerStart()).isEqualTo(16 + 5 + 1000);
        assertThat(footer.entryOffset(4))
                .as("an empty last entry sits at footer_start")
                .isEqualTo(1021);
        for (int i = 0; i < payloads.length; i++) {
            assertThat(readEntry(object, footer, i)).as("entry %d", i).isEqualTo(payloads[i]);
        }
        assertThat(footer.entryTableOffset(3)).isEqualTo(1021 + 3 * 24);
        assertThat(footer.payloadBytes()).isEqualTo(1005);
    }

    @Test
    void roundTripsManyEntriesAndAnInputStreamAppend() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        byte[][] payloads = new byte[300][];
        long[] references = new long[payloads.length];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = bytes(i * 7, i);
            references[i] =
                    i % 2 == 0 ? writer.append(payloads[i]) : writer.append(new ByteArrayInputStream(payloads[i]));
        }
        writer.finish();
        RecordingObject object = new RecordingObject(FILE, out.toByteArray());

        RawPackFooter footer = reader.readFooter(object);

        assertThat(footer.entryCount()).isEqualTo(payloads.length);
        for (int i = 0; i < payloads.length; i++) {
            int index = Math.toIntExact(RawPackFormat.entryIndex(references[i]));
            assertThat(index).isEqualTo(i);
            assertThat(readEntry(object, footer, index)).isEqualTo(payloads[i]);
        }
    }

    @Test
    void sharedEntriesPointAtExactlyTheSameBytes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        long empty = writer.append(new byte[0]);
        long frame = writer.append(ascii("frame"));
        writer.append(ascii("other"));
        long frameAgain = writer.appendShared(frame);
        long emptyAgain = writer.appendShared(empty);
        writer.finish();
        RecordingObject object = new RecordingObject(FILE, out.toByteArray());

        RawPackFooter footer = reader.readFooter(object);

        int a = (int) RawPackFormat.entryIndex(frame);
        int b = (int) RawPackFormat.entryIndex(frameAgain);
        assertThat(b).isEqualTo(3);
        assertThat(footer.entryOffset(b)).isEqualTo(footer.entryOffset(a)).isEqualTo(16);
        assertThat(footer.entryLength(b)).isEqualTo(5);
        assertThat(footer.entryCrc32c(b)).isEqualTo(footer.entryCrc32c(a));
        assertThat(readEntry(object, footer, b)).isEqualTo(ascii("frame"));
        assertThat(footer.entryOffset((int) RawPackFormat.entryIndex(emptyAgain)))
                .isEqualTo(16);
        assertThat(footer.footerStart()).as("shared bytes are stored once").isEqualTo(26);
        assertThat(footer.metadata()).containsEntry("payload_bytes", 15);
    }

    @Test
    void smallPackIsPlannedWithOneReadOfTheWholeFile() throws IOException {
        byte[] pack = TestPacks.write(ascii("a"), ascii("bc"));
        RecordingObject object = new RecordingObject(FILE, pack);

        reader.readFooter(object);

        assertThat(object.reads()).containsExactly(new Read(0, pack.length));
    }

    @Test
    void largePackWithSmallFooterIsPlannedWithOneReadOfTheLast64KiB() throws IOException {
        byte[] pack = TestPacks.write(bytes(300_000, 6), ascii("x"));
        RecordingObject object = new RecordingObject(FILE, pack);

        RawPackFooter footer = reader.readFooter(object);

        assertThat(object.reads()).containsExactly(new Read(pack.length - WINDOW, WINDOW));
        assertThat(footer.entryCount()).isEqualTo(2);
    }

    @Test
    void footerLargerThan64KiBIsPlannedWithExactlyTwoReads() throws IOException {
        int entries = 5000; // 120,000 bytes of entry table
        byte[][] payloads = new byte[entries][];
        for (int i = 0; i < entries; i++) {
            payloads[i] = bytes(i % 5, i);
        }
        byte[] pack = TestPacks.write(payloads);
        RecordingObject object = new RecordingObject(FILE, pack);

        RawPackFooter footer = reader.readFooter(object);

        long windowStart = pack.length - WINDOW;
        assertThat(footer.entryCount()).isEqualTo(entries);
        assertThat(object.reads()).containsExactly(new Read(windowStart, WINDOW), new Read(footer.footerStart(), (int)
                (windowStart - footer.footerStart())));
        assertThat(readEntry(object, footer, entries - 1)).isEqualTo(payloads[entries - 1]);
    }

    @Test
    void footerFillingExactlyTheWindowIsPlannedWithOneReadAndOneByteMoreWithTwo() throws IOException {
        byte[] exact = packWithFooterAndTail(WINDOW);
        RecordingObject exactObject = new RecordingObject(FILE, exact);
        RawPackFooter footer = reader.readFooter(exactObject);
        assertThat(exact.length - footer.footerStart()).as("footer + tail").isEqualTo(WINDOW);
        assertThat(exactObject.reads()).hasSize(1);

        byte[] over = packWithFooterAndTail(WINDOW + 1);
        RecordingObject overObject = new RecordingObject(FILE, over);
        RawPackFooter overFooter = reader.readFooter(overObject);
        assertThat(overObject.reads())
                .containsExactly(new Read(over.length - WINDOW, WINDOW), new Read(overFooter.footerStart(), 1));
    }

    /** A pack of one-byte entries whose footer plus tail is exactly {@code size} bytes. */
    private static byte[] packWithFooterAndTail(int size) throws IOException {
        int entries = 2720;
        int metadataLength = size - 32 - 24 * entries;
        int fixedPart = new RawPackMetadata("set-1", 7, "x").toJson(entries, entries).length - 1;
        RawPackMetadata metadata = new RawPackMetadata("set-1", 7, "x".repeat(metadataLength - fixedPart));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, metadata);
        for (int i = 0; i < entries; i++) {
            writer.append(new byte[] {(byte) i});
        }
        writer.finish();
        return out.toByteArray();
    }

    @Test
    void parseFooterAcceptsTheCallersOwnTailWindow() throws IOException {
        byte[] pack = TestPacks.write(ascii("abc"));
        byte[] last = Arrays.copyOfRange(pack, 19, pack.length);

        RawPackFooter footer = reader.parseFooter(FILE, pack.length, last, null);

        assertThat(footer.entryCount()).isEqualTo(1);
        assertThatThrownBy(() -> reader.parseFooter(FILE, pack.length, Arrays.copyOfRange(pack, 20, pack.length), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("footer starts at 19, before the given bytes at 20");
        assertThatThrownBy(() -> reader.parseFooter(FILE, pack.length, new byte[31], null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must hold the 32-byte tail");
    }

    @Test
    void readsAPackFromLocalStorage(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("10000000000000000000000000000000.blob");
        byte[] payload = bytes(100_000, 8);
        try (OutputStream out = Files.newOutputStream(file)) {
            RawPackWriter writer = RawPackWriter.create(out, METADATA);
            writer.append(payload);
            writer.finish();
        }

        try (ReadableObject object = new LocalBlobStorage().open(file.toUri())) {
            RawPackFooter footer = reader.readFooter(object);
            assertThat(readEntry(object, footer, 0)).isEqualTo(payload);
            assertThat(new RawPackVerifier(reader).verify(object)).isEmpty();
        }
    }

    @Test
    void ignoresUnknownMetadataKeysIncludingNullValues() throws IOException {
        byte[] pack = new HandBuiltPack()
                .entry(ascii("abc"))
                .metadata("{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"],"
                        + "\"future\":null,\"blob_set\":\"s\",\"nested\":{\"a\":[1,2]}}")
                .build();

        RawPackFooter footer = reader.readFooter(new RecordingObject(FILE, pack));

        assertThat(footer.metadata()).containsEntry("future", null).containsKey("nested");
        assertThat(footer.blobId()).as("absent blob_id").isEqualTo(-1);
        assertThat(footer.entryCount()).isEqualTo(1);
    }

    @Test
    void acceptsNonCanonicalButValidMetadata() throws IOException {
        byte[] pack = new HandBuiltPack()
                .metadata(" {\n  \"required_features\" : [ \"blob_object_pack\" ],\n  \"pack_version\" : 1,"
                        + " \"pack_type\" : \"raw\" , \"entry_count\": 0 }\n")
                .build();

        assertThat(reader.readFooter(new RecordingObject(FILE, pack)).entryCount())
                .isZero();
    }

    @Test
    void verifyPayloadAcceptsTheRightBytes() throws IOException {
        byte[] pack = TestPacks.write(ascii("xyz"));
        RawPackFooter footer = reader.readFooter(new RecordingObject(FILE, pack));

        RawPackReader.verifyPayload(footer, 0, pack, 16, 3);

        assertThatThrownBy(() -> RawPackReader.verifyPayload(footer, 0, ascii("xyZ"), 0, 3))
                .isInstanceOf(CorruptPackException.class);
    }

    @Test
    void readerWithAllFeaturesKnowsBlobObjectPack() {
        assertThat(reader.supportedFeatures()).isEqualTo(Set.of("blob_object_pack"));
    }

    private static byte[] readEntry(ReadableObject object, RawPackFooter footer, int index) throws IOException {
        byte[] payload = new byte[Math.toIntExact(footer.entryLength(index))];
        object.readFully(footer.entryOffset(index), payload, 0, payload.length);
        RawPackReader.verifyPayload(footer, index, payload, 0, payload.length);
        return payload;
    }
}
