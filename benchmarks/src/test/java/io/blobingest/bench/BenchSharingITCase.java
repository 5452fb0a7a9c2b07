package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.CliRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench} on the tiny duplicates workload, end to end: blob-ingest once per exact sharing
 * mode beside the other contenders. Checks what the bench reports; never how fast anything was.
 */
class BenchSharingITCase {

    private static final int SAMPLE = 50;

    @TempDir
    Path dir;

    /**
     * The duplicates workload runs blob-ingest with each exact sharing mode: every run accounts for every record, and
     * within-job shares every duplicate (routed by content, each meets its first copy).
     */
    @Test
    void tinyDuplicatesWorkloadComparesTheSharingModesAndWithinJobSharesEveryDuplicate() {
        CliRun run = CliRun.of(
                BenchCli.commandLine(),
                "bench",
                "--workload",
                "duplicates",
                "--bytes",
                "12mb",
                "--read-sample",
                Integer.toString(SAMPLE),
                "--checkpoint-interval",
                "1s",
                "--output",
                dir.resolve("bench").toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).doesNotContain("FAILED");
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(lines.size() - 2))
                .matches("RESULT workload=duplicates ingest_vs_consume=\\d+\\.\\d\\d ingest_vs_filesink=\\d+\\.\\d\\d"
                        + " read_vs_raw=\\d+\\.\\d\\d read_requests_ratio=\\d+ sharing_subtask_vs_off=\\d+\\.\\d\\d"
                        + " sharing_job_vs_off=\\d+\\.\\d\\d stored_vs_input_off=1\\.\\d{3}"
                        + " stored_vs_input_subtask=0\\.\\d{3} stored_vs_input_job=0\\.\\d{3}"
                        + " unique_vs_input=0\\.\\d{3}"
                        + " read_vs_raw_subtask=\\d+\\.\\d\\d read_vs_raw_job=\\d+\\.\\d\\d");
        assertThat(lines.get(lines.size() - 1))
                .startsWith("RESULT workload=duplicates steady_vs_filesink=")
                .containsPattern(" steady_sharing_subtask_vs_off=(n/a|\\d+\\.\\d\\d)"
                        + " steady_sharing_job_vs_off=(n/a|\\d+\\.\\d\\d)$");

        String records = BenchOutput.group(run.out(), "workload duplicates: ([\\d,]+) records");
        for (String contender : List.of(
                "consume",
                "filesink",
                "blob-ingest",
                "blob-ingest-off",
                "blob-ingest-within-subtask",
                "blob-ingest-within-job")) {
            assertThat(BenchOutput.group(run.out(), "\n" + contender + " +([\\d,]+) "))
                    .as(contender)
                    .isEqualTo(records);
        }
        String duplicates =
                BenchOutput.group(run.out(), "exact sharing: [^\\n]*\\), ([\\d,]+) of the " + records + " records");
        assertThat(Integer.parseInt(duplicates)).isPositive();
        // The table's columns after the mode: time, MB/s, vs off, steady MB/s, steady vs off, CPU s, stored MB,
        // stored/input, stored/unique, then shared rows.
        String sharedColumn = " +\\S+".repeat(9) + " +([\\d,]+) ";
        assertThat(BenchOutput.group(run.out(), "\noff" + sharedColumn)).isEqualTo("0");
        assertThat(BenchOutput.group(run.out(), "\nwithin-job" + sharedColumn)).isEqualTo(duplicates);
    }
}
