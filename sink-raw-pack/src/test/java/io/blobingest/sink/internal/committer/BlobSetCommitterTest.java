package io.blobingest.sink.internal.committer;

import static io.blobingest.sink.internal.writer.WriterHarness.commit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.sink.TestBlobs;
import io.blobingest.sink.internal.state.BlobSetCommittableSerializer;
import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.RawPackSinkWriter;
import io.blobingest.sink.internal.writer.SidecarKind;
import io.blobingest.sink.internal.writer.WriterHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
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

    @Test
    void committerReportsEachPacksFillAndTheTimeFromSealToVisible() throws IOException {
        BlobSetCommittable set = sealedSet(LongStream.range(290, 310).toArray());
        assertThat(set.count(SidecarKind.RAW_PACK)).isEqualTo(1);
        long packLength = set.sidecars().stream()
                .filter(sidecar -> sidecar.kind() == SidecarKind.RAW_PACK)
                .mapToLong(PendingSidecar::length)
                .sum();
        Path manifestInProgress = StoredBlobs.hiddenFiles(base.resolve(BlobSets.DESCRIPTORS_DIRECTORY))
                .get(0);
        Files.setLastModifiedTime(
                manifestInProgress,
                FileTime.fromMillis(
                        System.currentTimeMillis() - Duration.ofHours(1).toMillis()));
        HistogramRecorder metrics = new HistogramRecorder();

        commit(List.of(set), metrics);

        Histogram fill = metrics.histograms.get("packFillPercent");
        assertThat(fill.getCount()).isEqualTo(1);
        assertThat(fill.getStatistics().getMax()).isEqualTo(100 * packLength / (1 << 20));
        Histogram latency = metrics.histograms.get("commitLatencyMs");
        assertThat(latency.getCount()).isEqualTo(1);
        assertThat(latency.getStatistics().getMin())
                .isGreaterThanOrEqualTo(Duration.ofHours(1).toMillis());
    }

    private BlobSetCommittable sealedSet(long... indexes) throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 1 << 20);
        try (RawPackSinkWriter writer = harness.writer()) {
            WriterHarness.write(writer, indexes);
            return writer.prepareCommit().iterator().next();
        }
    }

    /** Keeps every histogram registered with it. */
    private static final class HistogramRecorder extends UnregisteredMetricsGroup {
        final Map<String, Histogram> histograms = new HashMap<>();

        @Override
        public <H extends Histogram> H histogram(String name, H histogram) {
            histograms.put(name, histogram);
            return histogram;
        }
    }
}
