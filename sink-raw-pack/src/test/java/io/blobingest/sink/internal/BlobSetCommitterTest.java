package io.blobingest.sink.internal;

import static io.blobingest.sink.internal.WriterHarness.commit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.sink.TestBlobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobSetCommitterTest {

    @TempDir
    Path base;

    @Test
    void committingABlobSetAgainAfterRecoveryChangesNothing() throws IOException {
        BlobSetCommittable set = sealedSet(LongStream.range(290, 310).toArray());
        commit(List.of(set));
        Map<String, List<DescriptorRow>> first = new StoredBlobs(base).committedManifests();
        List<Path> files = StoredBlobs.visibleFiles(base);

        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 1 << 20);
        BlobSetCommittableSerializer serializer =
                new BlobSetCommittableSerializer(harness.fs.getCommitRecoverableSerializer());
        BlobSetCommittable recovered = serializer.deserialize(serializer.getVersion(), serializer.serialize(set));
        commit(List.of(recovered));
        commit(List.of(recovered));

        assertThat(StoredBlobs.visibleFiles(base)).containsExactlyInAnyOrderElementsOf(files);
        StoredBlobs stored = new StoredBlobs(base);
        Map<String, List<DescriptorRow>> again = stored.committedManifests();
        assertThat(again).containsOnlyKeys(first.keySet());
        for (DescriptorRow row : again.get(set.blobSet())) {
            TestBlobs.assertDescribesItsBlob(row, stored);
        }
    }

    @Test
    void lostInProgressSidecarFailsTheCommitBeforeTheManifestIsPublished() throws IOException {
        BlobSetCommittable set = sealedSet(299, 300, 301);
        assertThat(set.count(SidecarKind.DEDICATED)).isEqualTo(1);
        Path dedicatedDir = base.resolve(set.blobSet());
        List<Path> inProgress = StoredBlobs.hiddenFiles(dedicatedDir);
        for (Path file : inProgress) {
            Files.delete(file);
        }

        assertThatThrownBy(() -> commit(List.of(set)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("blob set " + set.blobSet())
                .hasMessageContaining(BlobSets.sidecarFileName(1))
                .hasMessageContaining("is missing after commit");
        assertThat(new StoredBlobs(base).committedManifests()).isEmpty();
    }

    private BlobSetCommittable sealedSet(long... indexes) throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 1 << 20);
        try (RawPackSinkWriter writer = harness.writer()) {
            WriterHarness.write(writer, indexes);
            return writer.prepareCommit().iterator().next();
        }
    }
}
