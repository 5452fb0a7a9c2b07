package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetainedCheckpointsTest {

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

    private Path completed(String checkpoint, Instant time) throws IOException {
        Path directory = Files.createDirectories(dir.resolve(checkpoint));
        Path metadata = Files.writeString(directory.resolve("_metadata"), "metadata");
        Files.setLastModifiedTime(metadata, FileTime.from(time));
        return directory;
    }
}
