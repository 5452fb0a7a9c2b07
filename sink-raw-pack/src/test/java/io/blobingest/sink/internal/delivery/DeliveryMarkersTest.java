package io.blobingest.sink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delivery markers belong to a run, the chain of restores from one start without restored state:
 * its epochs count from 1 again, so only its own markers tell of its restores.
 */
class DeliveryMarkersTest {

    private static final String LINEAGE = "lineage-descriptors";

    @TempDir
    Path dir;

    private org.apache.flink.core.fs.Path base() {
        return new org.apache.flink.core.fs.Path(dir.toUri());
    }

    @Test
    void runIdsSortAsTheyWereDrawn() {
        String first = DeliveryMarkers.newRunId();
        String second = DeliveryMarkers.newRunId();
        assertThat(DeliveryMarkers.isRunId(first)).isTrue();
        assertThat(second).isGreaterThan(first);
    }

    @Test
    void aRunSeesOnlyItsOwnMarkersAndItsFirstDeliveryForgetsEveryEarlierRun() throws Exception {
        DeliveryMarkers legacy = new DeliveryMarkers(base(), LINEAGE, null);
        legacy.delivered(0, 40);
        DeliveryMarkers earlier = new DeliveryMarkers(base(), LINEAGE, DeliveryMarkers.newRunId());
        earlier.delivered(0, 30);
        earlier.delivered(1, 31);
        DeliveryMarkers run = new DeliveryMarkers(base(), LINEAGE, DeliveryMarkers.newRunId());

        assertThat(run.latestDelivered()).as("before its first delivery").isEmpty();
        assertThat(run.laterRun()).isEmpty();
        assertThat(earlier.laterRun()).as("the later run has not delivered yet").isEmpty();
        assertThat(legacy.laterRun())
                .as("state from before run ids is older than every run")
                .hasValue(earlier.run());

        run.delivered(0, 2);

        assertThat(run.latestDelivered()).isEqualTo(OptionalLong.of(2));
        assertThat(markerFiles())
                .containsExactly(dir.relativize(markerPath(run, "2-0")).toString());
        assertThat(earlier.latestDelivered()).as("forgotten").isEmpty();
        assertThat(earlier.laterRun()).hasValue(run.run());
        assertThat(legacy.laterRun()).hasValue(run.run());
    }

    @Test
    void aRunDrawnOnAClockThatIsBehindStillForgetsTheOtherRunOnceItDelivers() throws Exception {
        String behind = DeliveryMarkers.newRunId();
        DeliveryMarkers other = new DeliveryMarkers(base(), LINEAGE, DeliveryMarkers.newRunId());
        other.delivered(0, 9);
        DeliveryMarkers run = new DeliveryMarkers(base(), LINEAGE, behind);
        assertThat(run.laterRun())
                .as("before it delivers, the other run looks later")
                .hasValue(other.run());

        run.delivered(0, 1);

        assertThat(run.laterRun()).isEmpty();
        assertThat(markerFiles())
                .containsExactly(dir.relativize(markerPath(run, "1-0")).toString());
    }

    @Test
    void forgetAllDeletesThisRunsMarkersAndThoseOfLaterRunsOnly() throws Exception {
        DeliveryMarkers run = new DeliveryMarkers(base(), LINEAGE, DeliveryMarkers.newRunId());
        run.delivered(0, 7);
        DeliveryMarkers later = new DeliveryMarkers(base(), LINEAGE, DeliveryMarkers.newRunId());
        // Written without forgetting the earlier run, as a later run whose first marker's clean-up failed.
        Files.createDirectories(markerPath(later, "3-0").getParent());
        Files.createFile(markerPath(later, "3-0"));

        assertThat(run.laterRun()).isEqualTo(Optional.of(later.run()));
        run.forgetAll();

        assertThat(markerFiles()).isEmpty();
        assertThat(run.laterRun()).isEmpty();
    }

    @Test
    void stateFromBeforeRunIdsKeepsItsMarkersInTheLineagesDirectory() throws Exception {
        DeliveryMarkers legacy = new DeliveryMarkers(base(), LINEAGE, null);
        legacy.delivered(1, 12);
        legacy.delivered(1, 13);

        assertThat(legacy.directory()).isEqualTo(legacy.lineageDirectory());
        assertThat(legacy.latestDelivered()).isEqualTo(OptionalLong.of(13));
        assertThat(markerFiles())
                .containsExactly(dir.relativize(
                                Path.of(legacy.lineageDirectory().toUri()).resolve("13-1"))
                        .toString());
    }

    private static Path markerPath(DeliveryMarkers markers, String name) {
        return Path.of(markers.directory().toUri()).resolve(name);
    }

    private List<String> markerFiles() throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> dir.relativize(file).toString())
                    .toList();
        }
    }
}
