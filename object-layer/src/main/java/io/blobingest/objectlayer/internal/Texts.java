package io.blobingest.objectlayer.internal;

import java.nio.charset.StandardCharsets;

/** How bytes found in a file are shown in error messages. */
final class Texts {

    private Texts() {}

    /** Printable ASCII as is, every other byte as {@code \xNN}, in double quotes. */
    static String quote(byte[] bytes) {
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

    static String quote(String text) {
        return quote(text.getBytes(StandardCharsets.UTF_8));
    }
}
