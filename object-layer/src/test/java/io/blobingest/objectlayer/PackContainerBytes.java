package io.blobingest.objectlayer;

import io.blobingest.objectlayer.pack.RawPackFormat;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Assembles a pack container (SPEC section 2) with any metadata, for pack types and versions the
 * Raw Pack writer does not write. Each entry's crc32c covers its stored bytes.
 */
final class PackContainerBytes {

    private PackContainerBytes() {}

    static byte[] build(List<byte[]> storedEntries, String metadataJson) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer header = ByteBuffer.allocate(RawPackFormat.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        header.put(RawPackFormat.MAGIC).putShort((short) 1).putShort((short) 0).putInt(0);
        out.writeBytes(header.array());
        ByteBuffer table = ByteBuffer.allocate(RawPackFormat.ENTRY_LENGTH * storedEntries.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] entry : storedEntries) {
            CRC32C crc = new CRC32C();
            crc.update(entry);
            table.putLong(out.size()).putLong(entry.length).putInt((int) crc.getValue()).putInt(0);
            out.writeBytes(entry);
        }
        long footerStart = out.size();
        byte[] metadata = metadataJson.getBytes(StandardCharsets.UTF_8);
        CRC32C footerCrc = new CRC32C();
        footerCrc.update(table.array());
        footerCrc.update(metadata);
        out.writeBytes(table.array());
        out.writeBytes(metadata);
        ByteBuffer tail = ByteBuffer.allocate(RawPackFormat.TAIL_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        tail.putLong(footerStart)
                .putInt(storedEntries.size())
                .putInt(metadata.length)
                .putInt((int) footerCrc.getValue())
                .putShort((short) 1)
                .putShort((short) 0)
                .put(RawPackFormat.MAGIC);
        out.writeBytes(tail.array());
        return out.toByteArray();
    }

    static String metadata(String packType, int packVersion, String requiredFeaturesJson) {
        return "{\"pack_type\":\"" + packType + "\",\"pack_version\":" + packVersion
                + ",\"required_features\":" + requiredFeaturesJson + ",\"blob_set\":\"s\",\"blob_id\":1}";
    }
}
