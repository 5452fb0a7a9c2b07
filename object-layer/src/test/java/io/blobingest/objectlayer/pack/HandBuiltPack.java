package io.blobingest.objectlayer.pack;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Builds pack bytes straight from spec.md section 2, without {@link RawPackWriter}, so tests can make
 * packs the writer never would: odd metadata, entries out of bounds, unknown flags, all with a
 * valid footer crc32c so the reader gets past it to the fault under test. Also the container of
 * pack types the writer does not write at all.
 */
public final class HandBuiltPack {

    public static final String MINIMAL_METADATA =
            "{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"]}";

    private record Row(long offset, long length, int crc32c, int flags) {}

    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();
    private final List<Row> rows = new ArrayList<>();
    private byte[] metadata = MINIMAL_METADATA.getBytes(StandardCharsets.UTF_8);

    /** Appends {@code bytes} to the payload region and an entry naming them with their crc32c. */
    public HandBuiltPack entry(byte[] bytes) {
        long offset = RawPackFormat.HEADER_LENGTH + payload.size();
        payload.writeBytes(bytes);
        return row(offset, bytes.length, crc32c(bytes), 0);
    }

    /** Appends raw bytes to the payload region without an entry. */
    public HandBuiltPack payload(byte[] bytes) {
        payload.writeBytes(bytes);
        return this;
    }

    /** Adds an entry table row exactly as given. */
    public HandBuiltPack row(long offset, long length, int crc32c, int flags) {
        rows.add(new Row(offset, length, crc32c, flags));
        return this;
    }

    public HandBuiltPack metadata(String json) {
        return metadata(json.getBytes(StandardCharsets.UTF_8));
    }

    public HandBuiltPack metadata(byte[] bytes) {
        metadata = bytes.clone();
        return this;
    }

    /** Offset of the entry table (footer_start) in the built pack. */
    public long footerStart() {
        return RawPackFormat.HEADER_LENGTH + payload.size();
    }

    /** Offset of the metadata in the built pack. */
    public long metadataStart() {
        return footerStart() + 24L * rows.size();
    }

    public byte[] build() {
        long footerStart = footerStart();
        ByteBuffer footer =
                ByteBuffer.allocate(24 * rows.size() + metadata.length).order(ByteOrder.LITTLE_ENDIAN);
        for (Row row : rows) {
            footer.putLong(row.offset).putLong(row.length).putInt(row.crc32c).putInt(row.flags);
        }
        footer.put(metadata);
        byte[] footerBytes = footer.array();

        ByteBuffer pack = ByteBuffer.allocate(16 + payload.size() + footerBytes.length + 32)
                .order(ByteOrder.LITTLE_ENDIAN);
        pack.put(ascii("BLOBPACK")).putShort((short) 1).putShort((short) 0).putInt(0);
        pack.put(payload.toByteArray());
        pack.put(footerBytes);
        pack.putLong(footerStart)
                .putInt(rows.size())
                .putInt(metadata.length)
                .putInt(crc32c(footerBytes))
                .putShort((short) 1)
                .putShort((short) 0)
                .put(ascii("BLOBPACK"));
        return pack.array();
    }

    public static int crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
