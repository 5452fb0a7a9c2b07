package io.blobingest.objectlayer.pack;

import java.nio.charset.StandardCharsets;

/**
 * How values found in a pack are written in error messages, so that every reader (and every pack
 * backend) shows them alike, and {@code interop/rawpack.py} can match them byte for byte.
 */
public final class PackTexts {

    private PackTexts() {}

    /** Printable ASCII as is, every other byte as {@code \xNN}, in double quotes. */
    public static String quote(byte[] bytes) {
        StringBuilder text = new StringBuilder("\"");
        for (byte b : bytes) {
            if (b >= 0x20 && b < 0x7f) {
                text.append((char) b);
            } else {
                text.append(String.format("\\x%02x", b & 0xff));
            }
        }
        return text.append('"').toString();
    }

    /** The string's UTF-8 bytes, {@linkplain #quote(byte[]) quoted}. */
    public static String quote(String text) {
        return quote(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A parsed JSON value: a string quoted, anything else (numbers, null, arrays) as Java prints it. */
    public static String describe(Object value) {
        return value instanceof String s ? quote(s) : String.valueOf(value);
    }
}
