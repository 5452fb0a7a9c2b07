package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;

class PendingCommitSerializerTest {

    private static final String GOLDEN_V1 = "/serializer/lance-pending-commit-v1.bin";

    private final PendingCommitSerializer serializer = new PendingCommitSerializer();

    static PendingCommit sample() {
        return new PendingCommit(
                "0123456789abcdef0123456789abcdef",
                42,
                List.of(
                        new FragmentMetadata(
                                0,
                                List.of(new DataFile(
                                        "1101.lance", new int[] {0, 1, 2}, new int[] {0, 1, 2}, 2, 2, 1219L, null)),
                                4L,
                                null,
                                null),
                        new FragmentMetadata(
                                0,
                                List.of(new DataFile("0011.lance", new int[] {0}, new int[] {0}, 2, 2, null, 1)),
                                7L,
                                null,
                                null)));
    }

    @Test
    void aPendingCommitRoundTrips() throws IOException {
        PendingCommit commit = sample();

        PendingCommit read = serializer.deserialize(serializer.getVersion(), serializer.serialize(commit));

        assertThat(read).isEqualTo(commit);
    }

    @Test
    void version1BytesStillRead() throws IOException {
        byte[] golden;
        try (InputStream in = getClass().getResourceAsStream(GOLDEN_V1)) {
            assertThat(in).as(GOLDEN_V1).isNotNull();
            golden = in.readAllBytes();
        }

        assertThat(serializer.deserialize(PendingCommitSerializer.VERSION_1, golden))
                .isEqualTo(sample());
    }

    @Test
    void theWritersFragmentsRoundTripWithTheirVersion() throws IOException {
        List<FragmentMetadata> fragments = sample().fragments();

        assertThat(PendingCommitSerializer.deserializeFragments(PendingCommitSerializer.serializeFragments(fragments)))
                .isEqualTo(fragments);
    }

    @Test
    void anUnknownVersionIsRefused() {
        assertThatThrownBy(() -> serializer.deserialize(99, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown Lance pending commit version 99");
    }
}
