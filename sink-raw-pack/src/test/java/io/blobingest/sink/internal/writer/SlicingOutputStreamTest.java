package io.blobingest.sink.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlicingOutputStreamTest {

    @Test
    void aLargeWriteReachesTheStreamInOrderInSlicesOfAtMostOneMebibyte() throws Exception {
        byte[] blob = new byte[5 * SlicingOutputStream.MAX_SLICE / 2 + 7];
        new Random(1).nextBytes(blob);
        List<Integer> writes = new ArrayList<>();
        ByteArrayOutputStream file = new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] bytes, int offset, int length) {
                writes.add(length);
                super.write(bytes, offset, length);
            }
        };

        try (SlicingOutputStream out = new SlicingOutputStream(file)) {
            out.write(new byte[] {42}, 0, 1);
            out.write(blob, 3, blob.length - 3);
        }

        assertThat(writes)
                .containsExactly(
                        1,
                        SlicingOutputStream.MAX_SLICE,
                        SlicingOutputStream.MAX_SLICE,
                        blob.length - 3 - 2 * SlicingOutputStream.MAX_SLICE);
        byte[] expected = new byte[blob.length - 2];
        expected[0] = 42;
        System.arraycopy(blob, 3, expected, 1, blob.length - 3);
        assertThat(file.toByteArray()).isEqualTo(expected);
    }
}
