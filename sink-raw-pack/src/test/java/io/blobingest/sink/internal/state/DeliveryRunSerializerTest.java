package io.blobingest.sink.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.sink.internal.delivery.DeliveryMarkers;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DeliveryRunSerializerTest {

    private static final String GOLDEN_V1 = "delivery-run-v1.bin";

    /** The value written into the version 1 golden file. */
    private static final String GOLDEN = "run-1764806400123-0a1b2c3d";

    private final DeliveryRunSerializer serializer = DeliveryRunSerializer.INSTANCE;

    @Test
    void version1GoldenBytesStillRead() throws IOException {
        assertThat(serializer.deserialize(DeliveryRunSerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1)))
                .isEqualTo(GOLDEN);
    }

    @Test
    void currentVersionStillWritesVersion1Bytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(DeliveryRunSerializer.VERSION_1);
        assertThat(serializer.serialize(GOLDEN)).isEqualTo(GoldenBytes.read(GOLDEN_V1));
    }

    @Test
    void aNewRunIdRoundTrips() throws IOException {
        String run = DeliveryMarkers.newRunId();
        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(run)))
                .isEqualTo(run);
    }

    @Test
    void refusesUnknownVersionsTrailingBytesAndWhatIsNoRunId() throws IOException {
        byte[] bytes = serializer.serialize(GOLDEN);
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown delivery run version: expected 1 to 1, found 2");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(DeliveryRunSerializer.VERSION_1, longer))
                .isInstanceOf(IOException.class)
                .hasMessage("delivery run " + GOLDEN + " has 1 trailing bytes after its version 1 fields");
        assertThatThrownBy(() -> serializer.deserialize(DeliveryRunSerializer.VERSION_1, serializer.serialize("../x")))
                .isInstanceOf(IOException.class)
                .hasMessage("not a delivery run id: ../x");
    }
}
