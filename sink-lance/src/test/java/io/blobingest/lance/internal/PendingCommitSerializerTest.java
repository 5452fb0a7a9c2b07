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
    private static final String GOLDEN_V2 = "/serializer/lance-pending-commit-v2.bin";
    private static final String DATASET = "s3://robots/lance/cam-front.lance";

    private final PendingCommitSerializer serializer = new PendingCommitSerializer();

    /** What the golden files hold; version 1 bytes name no dataset. */
    static PendingCommit sample(String datasetUri) {
        return new PendingCommit(
                "0123456789abcdef0123456789abcdef",
                42,
                datasetUri,
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
        PendingCommit commit = sample(DATASET);

        PendingCommit read = serializer.deserialize(serializer.getVersion(), serializer.serialize(commit));

        assertThat(read).isEqualTo(commit);
    }

    @Test
    void version1BytesStillReadWithoutADataset() throws IOException {
        assertThat(serializer.deserialize(PendingCommitSerializer.VERSION_1, golden(GOLDEN_V1)))
                .isEqualTo(sample(null));
    }

    @Test
    void currentVersionWritesTheVersion2GoldenBytes() throws IOException {
        byte[] golden = golden(GOLDEN_V2);

        assertThat(serializer.getVersion()).isEqualTo(PendingCommitSerializer.VERSION_2);
        assertThat(serializer.deserialize(PendingCommitSerializer.VERSION_2, golden))
                .isEqualTo(sample(DATASET));
        assertThat(serializer.serialize(sample(DATASET))).isEqualTo(golden);
    }

    @Test
    void theWritersFragmentsRoundTripWithTheirDataset() throws IOException {
        List<FragmentMetadata> fragments = sample(DATASET).fragments();

        assertThat(PendingCommitSerializer.deserializeFragments(
                        PendingCommitSerializer.serializeFragments(DATASET, fragments)))
                .isEqualTo(new PendingCommitSerializer.WrittenFragments(DATASET, fragments));
    }

    private byte[] golden(String resource) throws IOException {
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void anUnknownVersionIsRefused() {
        assertThatThrownBy(() -> serializer.deserialize(99, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown Lance pending commit version 99");
    }
}
