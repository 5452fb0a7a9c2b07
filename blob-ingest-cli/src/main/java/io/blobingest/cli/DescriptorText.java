package io.blobingest.cli;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobHeaders;
import java.nio.charset.CharacterCodingException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * A descriptor row's fields as text for people: numbers as unsigned decimals (what {@code blob cat}
 * takes), keys and header values as text when they are printable UTF-8 and as hex otherwise.
 */
final class DescriptorText {

    static final String NONE = "-";
    private static final int MAX_SHOWN_BYTES = 64;

    private DescriptorText() {}

    static String key(DescriptorRow row) {
        return row.key() == null ? "(null)" : bytes(row.key());
    }

    static String kind(DescriptorRow row) {
        return row.blob().kind().name().toLowerCase(Locale.ROOT);
    }

    static String position(DescriptorRow row) {
        return Long.toUnsignedString(row.blob().position());
    }

    static String size(DescriptorRow row) {
        return Long.toUnsignedString(row.blob().size());
    }

    static String blobId(DescriptorRow row) {
        return Long.toUnsignedString(row.blob().blobId());
    }

    static String blobSet(DescriptorRow row) {
        return row.blobSet() == null ? NONE : row.blobSet();
    }

    static String uri(DescriptorRow row) {
        return row.blob().blobUri().isEmpty() ? NONE : row.blob().blobUri();
    }

    /** The input's Kafka timestamp as an ISO-8601 instant (UTC); {@code -} when it had none. */
    static String timestamp(DescriptorRow row) {
        return row.sourceTimestamp() == null
                ? NONE
                : Instant.ofEpochMilli(row.sourceTimestamp()).toString();
    }

    static String crc32c(DescriptorRow row) {
        return row.crc32c() == null ? NONE : Long.toString(row.crc32c());
    }

    /** {@code name=value name=value}, in their order; {@code -} when there are none. */
    static String attributes(DescriptorRow row) {
        if (row.attributes().isEmpty()) {
            return NONE;
        }
        StringJoiner text = new StringJoiner(" ");
        for (DescriptorRow.Attribute attribute : row.attributes()) {
            text.add(attribute.name() + "=" + (attribute.value() == null ? "(null)" : bytes(attribute.value())));
        }
        return text.toString();
    }

    /** Printable UTF-8 as it is, anything else as {@code 0x} and hex; long values cut with their length. */
    static String bytes(byte[] value) {
        try {
            String text = BlobHeaders.decodeUtf8(value);
            if (text.codePoints().allMatch(c -> c >= 0x20 && c != 0x7F && !Character.isISOControl(c))) {
                return text.length() <= MAX_SHOWN_BYTES
                        ? text
                        : text.substring(0, MAX_SHOWN_BYTES) + "...(" + value.length + " bytes)";
            }
        } catch (CharacterCodingException e) {
            // not text: shown as hex below
        }
        int shown = Math.min(value.length, MAX_SHOWN_BYTES / 2);
        String hex = "0x" + HexFormat.of().formatHex(value, 0, shown);
        return shown == value.length ? hex : hex + "...(" + value.length + " bytes)";
    }
}
