package io.blobingest.sink.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.sink.internal.delivery.EmittedBlobSet;
import io.blobingest.sink.internal.delivery.PendingDelivery;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingDeliverySerializerTest {

    private static final String GOLDEN_V1 = "pending-delivery-v1.bin";
    private static final String GOLDEN_V2 = "pending-delivery-v2.bin";

    private static final List<EmittedBlobSet> SETS = List.of(
            new EmittedBlobSet(GoldenStates.BASE, GoldenStates.BLOB_SET, 7),
            new EmittedBlobSet("s3://bucket/blobs", "0123456789abcdef0123456789abcdef-3-1", 1));

    /** The value written into the version 1 golden file; that version has no send time. */
    static final PendingDelivery<EmittedBlobSet> GOLDEN_VERSION_1 = new PendingDelivery<>(3, 42, 0, SETS);

    /** The value written into the version 2 golden file. */
    static final PendingDelivery<EmittedBlobSet> GOLDEN = new PendingDelivery<>(3, 42, 1_764_806_400_123L, SETS);

    private final PendingDeliverySerializer<EmittedBlobSet> serializer =
            new PendingDeliverySerializer<>(EmittedBlobSet.CODEC);

    @Test
    void version1GoldenBytesStillReadWithoutASendTime() throws IOException {
        assertThat(serializer.deserialize(PendingDeliverySerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1)))
                .isEqualTo(GOLDEN_VERSION_1);
    }

    @Test
    void version2GoldenBytesStillRead() throws IOException {
        assertThat(serializer.deserialize(PendingDeliverySerializer.VERSION_2, GoldenBytes.read(GOLDEN_V2)))
                .isEqualTo(GOLDEN);
    }

    @Test
    void currentVersionStillWritesVersion2Bytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(PendingDeliverySerializer.VERSION_2);
        assertThat(serializer.serialize(GOLDEN)).isEqualTo(GoldenBytes.read(GOLDEN_V2));
    }

    @Test
    void refusesUnknownVersionsAndTrailingBytes() throws IOException {
        byte[] bytes = serializer.serialize(GOLDEN);
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown pending delivery version: expected 1 to 2, found 3");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(PendingDeliverySerializer.VERSION_2, longer))
                .isInstanceOf(IOException.class)
                .hasMessage("pending delivery of epoch 42 has 1 trailing bytes after its version 2 fields");
    }
}
