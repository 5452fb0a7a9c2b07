package io.blobingest.job.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetainedCheckpointsTest {

    private static final String BASE = "file:/data/base";
    private static final Duration WINDOW = Duration.ofMinutes(10);

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void theNewestCompletedCheckpointWinsAcrossJobs() throws IOException {
        completed("job-a/chk-7", T0);
        Path newest = completed("job-b/chk-2", T0.plusSeconds(60));
        completed("job-a/chk-8", T0.plusSeconds(30));

        assertThat(RetainedCheckpoints.latest(dir.toUri()).map(Path::of)).contains(newest);
    }

    @Test
    void aCheckpointWithoutMetadataWasNeverCompletedAndIsIgnored() throws IOException {
        Path completed = completed("job/chk-3", T0);
        Files.createDirectories(dir.resolve("job/chk-4"));
        Files.writeString(dir.resolve("job/chk-4/some-state"), "x");

        assertThat(RetainedCheckpoints.latest(dir.toUri()).map(Path::of)).contains(completed);
    }

    @Test
    void theHigherCheckpointNumberBreaksATieInTime() throws IOException {
        completed("job/chk-9", T0);
        Path higher = completed("job/chk-10", T0);

        assertThat(RetainedCheckpoints.latest(dir.toUri()).map(Path::of)).contains(higher);
    }

    @Test
    void onlyMetadataOfChkDirectoriesCounts() throws IOException {
        completed("job/savepoint-1", T0.plusSeconds(60));
        Path checkpoint = completed("job/chk-1", T0);

        assertThat(RetainedCheckpoints.latest(dir.toUri()).map(Path::of)).contains(checkpoint);
    }

    @Test
    void nothingWhenTheDirectoryIsEmptyOrMissing() {
        assertThat(RetainedCheckpoints.latest(dir.toUri())).isEmpty();
        assertThat(RetainedCheckpoints.latest(dir.resolve("missing").toUri())).isEmpty();
    }

    @Test
    void requiringTheDiscardOfAFinishedJobIgnoresOtherJobsAndUnfinishedCheckpoints() throws Exception {
        completed("other-job/chk-3", T0);
        Files.createDirectories(dir.resolve("finished-job/chk-4"));

        assertThatCode(() -> RetainedCheckpoints.requireDiscarded(dir.toUri(), "finished-job", Optional.empty()))
                .doesNotThrowAnyException();
    }

    @Test
    void aCheckpointOfTheFinishedJobOrTheClaimedOneStillThereFailsNamingIt() throws IOException {
        Path own = completed("finished-job/chk-5", T0);
        Path claimed = completed("killed-job/chk-2", T0);

        assertThatThrownBy(() -> RetainedCheckpoints.requireDiscarded(dir.toUri(), "finished-job", Optional.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("finished job finished-job")
                .hasMessageContaining("finished-job/chk-5");
        Files.delete(own.resolve("_metadata"));
        assertThatThrownBy(() ->
                        RetainedCheckpoints.requireDiscarded(dir.toUri(), "finished-job", Optional.of(claimed.toUri())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("killed-job/chk-2");
    }

    @Test
    void aStartConsidersOnlyItsOwnLineagesCheckpoints() throws IOException {
        completed("job-a1/chk-7", T0.plusSeconds(60));
        record("job-a1", "job-a");
        Path own = completed("job-b1/chk-3", T0);
        record("job-b1", "job-b");
        Path ownNewer = completed("job-b2/chk-4", T0.plusSeconds(30));
        record("job-b2", "job-b");

        RetainedCheckpoints.Selection selection = RetainedCheckpoints.select(dir.toUri(), "job-b", BASE);

        assertThat(selection.latest().map(Path::of)).contains(ownNewer);
        assertThat(selection.otherLineages()).containsExactly("job-a");
        assertThat(own).exists();
    }

    @Test
    void anotherLineagesCheckpointsAloneAreNoStartingPoint() throws IOException {
        completed("job-a1/chk-7", T0);
        record("job-a1", "job-a");

        RetainedCheckpoints.Selection selection = RetainedCheckpoints.select(dir.toUri(), "job-b", BASE);

        assertThat(selection.latest()).isEmpty();
        assertThat(selection.otherLineages()).containsExactly("job-a");
    }

    @Test
    void aNewestCheckpointWithoutALineageRecordIsRefusedInOneLineNamingIt() throws IOException {
        completed("job-b1/chk-3", T0);
        record("job-b1", "job-b");
        Path unrecorded = completed("old-release-job/chk-9", T0.plusSeconds(60));

        assertThatThrownBy(() -> RetainedCheckpoints.select(dir.toUri(), "job-b", BASE))
                .isInstanceOf(RetainedCheckpoints.UnrecordedCheckpointException.class)
                .hasMessageContaining("path=file:" + unrecorded)
                .hasMessageContaining("no lineage record")
                .hasMessageContaining("-D execution.state-recovery.path=file:" + unrecorded
                        + " -D execution.state-recovery.claim-mode=CLAIM")
                .hasMessageContaining("--fresh")
                .hasMessageNotContaining("\n");
        // Alone in the directory, it is refused all the same.
        Files.delete(dir.resolve("job-b1/chk-3/_metadata"));
        assertThatThrownBy(() -> RetainedCheckpoints.select(dir.toUri(), "job-b", BASE))
                .isInstanceOf(RetainedCheckpoints.UnrecordedCheckpointException.class);
    }

    @Test
    void anOlderCheckpointWithoutALineageRecordIsLeftOut() throws IOException {
        completed("old-release-job/chk-9", T0);
        Path own = completed("job-b1/chk-3", T0.plusSeconds(60));
        record("job-b1", "job-b");

        assertThat(RetainedCheckpoints.select(dir.toUri(), "job-b", BASE)
                        .latest()
                        .map(Path::of))
                .contains(own);
    }

    @Test
    void theLineageRecordIsWrittenOnceAndAnotherLineageOnTheSameJobIsRefused() throws IOException {
        RetainedCheckpoints.recordLineage(dir.toUri(), "job-b1", "job-b", BASE, WINDOW);
        RetainedCheckpoints.recordLineage(dir.toUri(), "job-b1", "job-b", BASE, WINDOW);

        assertThat(dir.resolve("job-b1").resolve(RetainedCheckpoints.LINEAGE_RECORD))
                .hasContent("job-b\nbase=file:/data/base\nopen-window=PT10M\n");
        // A job directory with only its record holds no checkpoint.
        assertThat(RetainedCheckpoints.select(dir.toUri(), "job-b", BASE).latest())
                .isEmpty();
        Path own = completed("job-b1/chk-1", T0);
        assertThat(RetainedCheckpoints.select(dir.toUri(), "job-b", BASE)
                        .latest()
                        .map(Path::of))
                .contains(own);
        assertThatThrownBy(() -> RetainedCheckpoints.recordLineage(dir.toUri(), "job-b1", "job-a", BASE, WINDOW))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'job-b'");
    }

    @Test
    void theNewestCheckpointOfTheLineageWrittenWithAnotherBaseIsRefusedInOneLine() throws IOException {
        Path own = completed("job-b1/chk-3", T0);
        record("job-b1", "job-b\nbase=file:/data/old-base\n");

        assertThatThrownBy(() -> RetainedCheckpoints.select(dir.toUri(), "job-b", "file:///data/base/"))
                .isInstanceOf(RetainedCheckpoints.ChangedSettingException.class)
                .hasMessageContaining("was written with the base file:/data/old-base, not this start's file:/data/base")
                .hasMessageContaining("--base file:/data/old-base")
                .hasMessageContaining("--fresh")
                .hasMessageNotContaining("\n");
        assertThat(RetainedCheckpoints.select(dir.toUri(), "job-b", "/data/old-base/")
                        .latest()
                        .map(Path::of))
                .contains(own);
    }

    @Test
    void anotherLineagesCheckpointInTheSameBaseIsAChangedGroupIdAndIsRefused() throws IOException {
        completed("job-a1/chk-7", T0);
        record("job-a1", "job-a\nbase=file:/data/base\n");

        assertThatThrownBy(() -> RetainedCheckpoints.select(dir.toUri(), "job-b", BASE))
                .isInstanceOf(RetainedCheckpoints.ChangedSettingException.class)
                .hasMessageContaining("under the lineage 'job-a'")
                .hasMessageContaining("--group-id job-a")
                .hasMessageContaining("--fresh")
                .hasMessageNotContaining("\n");
        // Another base: another job, left alone.
        assertThat(RetainedCheckpoints.select(dir.toUri(), "job-b", "file:/data/other-base")
                        .latest())
                .isEmpty();
    }

    @Test
    void theCheckpointsOfABaseProtectWhatTheirOpenSetsMayHaveStarted() throws IOException {
        completed("job-b1/chk-3", T0);
        record("job-b1", "job-b\nbase=file:/data/base\nopen-window=PT10M\n");
        completed("job-c1/chk-5", T0);
        record("job-c1", "job-c\nbase=file:/data/other-base\nopen-window=PT10M\n");
        completed("old-release-job/chk-9", T0.minusSeconds(3600));

        List<RetainedCheckpoints.Protection> protections = RetainedCheckpoints.protecting(dir.toUri(), "/data/base/");

        assertThat(protections).hasSize(2);
        RetainedCheckpoints.Protection recorded = protections.stream()
                .filter(p -> p.window().isPresent())
                .findFirst()
                .orElseThrow();
        assertThat(recorded.mayNeed(Optional.of(T0.minusSeconds(60)))).isTrue();
        assertThat(recorded.mayNeed(Optional.of(T0.minusSeconds(601)))).isFalse();
        assertThat(recorded.mayNeed(Optional.of(T0.plusSeconds(1))))
                .as("started after it")
                .isFalse();
        assertThat(recorded.mayNeed(Optional.empty())).as("age unknown").isTrue();
        RetainedCheckpoints.Protection unrecorded = protections.stream()
                .filter(p -> p.window().isEmpty())
                .findFirst()
                .orElseThrow();
        assertThat(unrecorded.mayNeed(Optional.of(T0.minusSeconds(86_400)))).isTrue();
    }

    private void record(String job, String lineage) throws IOException {
        Files.writeString(dir.resolve(job).resolve(RetainedCheckpoints.LINEAGE_RECORD), lineage);
    }

    private Path completed(String checkpoint, Instant time) throws IOException {
        Path directory = Files.createDirectories(dir.resolve(checkpoint));
        Path metadata = Files.writeString(directory.resolve("_metadata"), "metadata");
        Files.setLastModifiedTime(metadata, FileTime.from(time));
        return directory;
    }
}
