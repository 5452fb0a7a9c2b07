package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.placement.DeadLetterCode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingDeadLettersSerializerTest {

    private static final String GOLDEN_V1 = "pending-dead-letters-v1.bin";

    /** The value written into the version 1 golden file. */
    static final PendingDeadLetters GOLDEN = new PendingDeadLetters(
            3,
            42,
            1_764_806_400_123L,
            List.of(
                    new DeadLetterRef("robot-frames", 1, 1_234_567_890_123L, DeadLetterCode.NULL_VALUE, "null value"),
                    new DeadLetterRef(
                            "robot-frames",
                            0,
                            7,
                            DeadLetterCode.URI_NOT_ALLOWED,
                            "blob.uri file:///elsewhere/clip.bin matches no allowed prefix – ünïcode")));

    private final PendingDeadLettersSerializer serializer = PendingDeadLettersSerializer.INSTANCE;

    @Test
    void version1GoldenBytesStillRead() throws IOException {
        assertThat(serializer.deserialize(PendingDeadLettersSerializer.VERSION_1, golden()))
                .isEqualTo(GOLDEN);
    }

    @Test
    void currentVersionStillWritesVersion1Bytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(PendingDeadLettersSerializer.VERSION_1);
        assertThat(serializer.serialize(GOLDEN)).isEqualTo(golden());
    }

    @Test
    void refusesUnknownVersionsTrailingBytesAndUnknownCodes() throws IOException {
        byte[] bytes = serializer.serialize(GOLDEN);
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown pending dead-letter version: expected 1 to 1, found 2");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(PendingDeadLettersSerializer.VERSION_1, longer))
                .isInstanceOf(IOException.class)
                .hasMessage("pending dead letters of epoch 42 have 1 trailing bytes after their version 1 fields");
        PendingDeadLetters oneRef =
                new PendingDeadLetters(0, 1, 0, List.of(new DeadLetterRef("t", 0, 0, DeadLetterCode.TOO_LARGE, "")));
        byte[] tooLarge = serializer.serialize(oneRef);
        byte[] renamed = new String(tooLarge, java.nio.charset.StandardCharsets.ISO_8859_1)
                .replace("too-large", "too-small")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> serializer.deserialize(PendingDeadLettersSerializer.VERSION_1, renamed))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown dead-letter code 'too-small' in pending dead letters");
    }

    private static byte[] golden() throws IOException {
        try (InputStream in = PendingDeadLettersSerializerTest.class.getResourceAsStream("/serializer/" + GOLDEN_V1)) {
            if (in == null) {
                throw new IllegalStateException(
                        "golden file /serializer/" + GOLDEN_V1 + " is not on the test classpath");
            }
            return in.readAllBytes();
        }
    }
}
