package io.blobingest.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingDeliverySerializerTest {

    private static final String GOLDEN_V1 = "pending-delivery-v1.bin";

    /** The value written into the golden file. */
    static final PendingDelivery GOLDEN = new PendingDelivery(
            3,
            42,
            List.of(
                    new EmittedBlobSet(GoldenStates.BASE, GoldenStates.BLOB_SET, 7),
                    new EmittedBlobSet("s3://bucket/blobs", "0123456789abcdef0123456789abcdef-3-1", 1)));

    private final PendingDeliverySerializer serializer = new PendingDeliverySerializer();

    @Test
    void version1GoldenBytesStillRead() throws IOException {
        assertThat(serializer.deserialize(PendingDeliverySerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1)))
                .isEqualTo(GOLDEN);
    }

    @Test
    void currentVersionStillWritesVersion1Bytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(PendingDeliverySerializer.VERSION_1);
        assertThat(serializer.serialize(GOLDEN)).isEqualTo(GoldenBytes.read(GOLDEN_V1));
    }

    @Test
    void refusesUnknownVersionsAndTrailingBytes() throws IOException {
        byte[] bytes = serializer.serialize(GOLDEN);
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown pending delivery version: expected 1, found 2");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(PendingDeliverySerializer.VERSION_1, longer))
                .isInstanceOf(IOException.class)
                .hasMessage("pending delivery of epoch 42 has 1 trailing bytes after its version 1 fields");
    }
}
