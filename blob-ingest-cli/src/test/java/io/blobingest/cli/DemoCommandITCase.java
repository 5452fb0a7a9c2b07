package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo} run in-process as a user runs it: its own Kafka broker and local MiniCluster, a
 * small workload, the read-back check.
 */
class DemoCommandITCase {

    @TempDir
    Path dir;

    @Test
    void smallDemoCommitsEveryRecordAndReadsEveryBlobBack() throws Exception {
        Path base = dir.resolve("demo-output");

        CliRun run = CliRun.of("demo", "--base", base.toString(), "--blobs", "150", "--seed", "7");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("blob-ingest demo: 150 records (seed 7")
                .containsPattern("\\s2  re-sent frame ")
                .containsPattern("\\s3  calibration image ")
                .containsPattern("run summary: \\d+ descriptors in \\d+ blob sets")
                .containsPattern("packed +\\d+ blobs .* in \\d+ packs, average .*% of the 16.0 MiB target")
                .containsPattern("dedicated +1 blobs")
                // Both re-sent frames share their first copy, the third calibration image the first (on its
                // partition); a restart mid-run forgets the open set's objects, so only "some" is asserted.
                .containsPattern(
                        "shared +[1-9][\\d,]* blobs +[1-9][\\d.]* (B|KiB|MiB) not stored again \\(exact sharing\\)")
                .containsPattern("sharing index [1-9][\\d,]* objects remembered \\(at most 100,000 per subtask\\)")
                .containsPattern("external +3 references")
                .contains("null-value 1", "bad-range 1", "bad-uri 2", "uri-not-allowed 1", "too-large 1")
                .contains("ingest-mode External records: 1 fetched, placed and read back")
                .contains("OK: every blob matched");
        assertThat(run.err()).contains("150 of 150 records committed");
        assertThat(base.resolve("_descriptors")).isDirectoryContaining("glob:**.arrow");
        assertThat(Files.list(base.resolve("_external"))).hasSize(4);
    }

    @Test
    void withLanceEveryBlobAlsoReadsBackThroughLancesTakeBlobs() throws Exception {
        Path base = dir.resolve("demo-output");

        CliRun run = CliRun.of("demo", "--base", base.toString(), "--blobs", "150", "--seed", "7", "--lance");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("OK: every blob matched")
                .containsPattern(
                        "Lance dataset .*demo\\.lance: 144 rows, 144 blobs read back by Lance's takeBlobs and matched")
                .contains("OK: Lance reads every blob back");
        assertThat(base.resolve("_lance").resolve("demo.lance")).isDirectory();
    }
}
