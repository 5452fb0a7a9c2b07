package io.blobingest.objectlayer.pack;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ReadableObject.readScattered} as a storage without its own gets it. */
class ScatteredReadDefaultTest {

    @Test
    void theDefaultReadsEachArrayTargetAtItsPositionAndNoHole() throws IOException {
        byte[] content = new byte[500];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }
        RecordingObject object = new RecordingObject("memory", content);
        byte[] first = new byte[30];
        byte[] second = new byte[50];

        object.readScattered(
                100,
                List.of(
                        ScatterTarget.skip(5),
                        ScatterTarget.into(first, 0, 30),
                        ScatterTarget.skip(65),
                        ScatterTarget.into(second, 10, 40)));

        assertThat(object.reads())
                .containsExactly(new RecordingObject.Read(105, 30), new RecordingObject.Read(200, 40));
        assertThat(first).isEqualTo(Arrays.copyOfRange(content, 105, 135));
        assertThat(Arrays.copyOfRange(second, 10, 50)).isEqualTo(Arrays.copyOfRange(content, 200, 240));
    }
}
