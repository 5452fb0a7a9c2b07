package io.blobingest.sink.internal.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Reads a checked-in golden file from the test classpath. */
public final class GoldenBytes {

    private GoldenBytes() {}

    public static byte[] read(String resource) {
        try (InputStream in = GoldenBytes.class.getResourceAsStream("/serializer/" + resource)) {
            if (in == null) {
                throw new IllegalStateException(
                        "golden file /serializer/" + resource + " is not on the test classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
