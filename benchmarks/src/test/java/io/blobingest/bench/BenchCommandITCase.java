package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.CliRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench} on a tiny workload, end to end: every contender in its child JVM, the read side.
 * Checks what the bench reports and that it is complete; never how fast anything was.
 */
class BenchCommandITCase {

    private static final int SAMPLE = 50;

    @TempDir
    Path dir;

    /** Profiled too: the profiler costs this tiny run a little CPU and no second run. */
    @Test
    void tinySmallWorkloadReportsEveryContenderAResultLineAndWhereTheirCpuWent() {
        CliRun run = CliRun.of(
                BenchCli.commandLine(),
                "bench",
                "--workload",
                "small",
                "--bytes",
                "3mb",
                "--read-sample",
                Integer.toString(SAMPLE),
                "--checkpoint-interval",
                "1s",
                "--output",
                dir.resolve("bench").toString(),
                "--profile",
                "--s3",
                "--s3-latency",
                "5ms",
                "--s3-bandwidth",
                "200mb");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(lines.size() - 1))
                .matches("RESULT workload=small steady_vs_filesink=(n/a|\\d+\\.\\d\\d)"
                        + " steady_vs_consume=(n/a|\\d+\\.\\d\\d)"
                        + " freshness_p99_over_interval=n/a s3_batch_speedup=\\d+ s3_vs_ideal=\\d+\\.\\d\\d"
                        + " s3_vs_lance_style=\\d+\\.\\d\\d steady_vs_disk=(n/a|\\d+\\.\\d\\d)");
        assertThat(lines.get(lines.size() - 2))
                .matches("RESULT workload=small ingest_vs_consume=\\d+\\.\\d\\d ingest_vs_filesink=\\d+\\.\\d\\d"
                        + " read_vs_raw=\\d+\\.\\d\\d read_requests_ratio=\\d+");
        assertThat(run.out()).doesNotContain("FAILED");

        String records = BenchOutput.group(run.out(), "workload small: ([\\d,]+) records");
        for (String contender : List.of("consume", "filesink", "blob-ingest")) {
            assertThat(BenchOutput.group(run.out(), "\n" + contender + " +([\\d,]+) "))
                    .as(contender)
                    .isEqualTo(records);
        }
        assertThat(run.out())
                .contains("read side: " + SAMPLE + " random Packed descriptors of " + records)
                .contains(SAMPLE + " verified by crc32c")
                .contains("read side over s3://")
                .contains("the same " + SAMPLE + " descriptors")
                .containsPattern("Lance-style .* \\d+\\.\\d +\\d+ ")
                .contains("steady phase: from the first commit of input at or past 25%")
                .containsPattern("disk: the same [\\d,.]+ MB written sequentially to the same directory, 1 MiB"
                        + " writes: \\d+\\.\\d MB/s ended by an fsync, \\d+\\.\\d MB/s without");
        assertThat(dir.resolve("bench/small/blob-ingest/_descriptors")).isDirectoryContaining("glob:**.arrow");

        for (String contender : List.of("consume", "filesink", "blob-ingest", "read-side", "read-side-s3")) {
            // async-profiler ships for linux-x64 only; elsewhere the bench says so and runs unprofiled.
            assertThat(run.out())
                    .as(contender)
                    .containsPattern("\n" + contender
                            + ": ([\\d,]+ samples of event (cpu|itimer)|not profiled, async-profiler cannot load)");
            assertThat(dir.resolve("bench/small/jvms/" + contender + ".profile.txt"))
                    .as(contender)
                    .exists();
        }
    }
}
