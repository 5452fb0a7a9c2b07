package io.blobingest.job.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class JobCliTest {

    @Test
    void faultWithoutCauseIsItsMessage() {
        assertThat(JobCli.describe(new IOException("p.blob offset 16: payload crc32c mismatch")))
                .isEqualTo("p.blob offset 16: payload crc32c mismatch");
    }

    @Test
    void faultWithCausesNamesTheRootCause() {
        Exception failed = new RuntimeException(
                "Job execution failed.",
                new IllegalStateException(
                        "Recovery is suppressed", new UncheckedIOException(new IOException("disk full"))));

        assertThat(JobCli.describe(failed)).isEqualTo("Job execution failed. (caused by IOException: disk full)");
    }

    @Test
    void aFileFaultAboveALibrarysExceptionIsTheCauseShown() {
        Exception failed = new RuntimeException(
                "Job execution failed.",
                new IOException(
                        "/data/_descriptors/a.arrow: not an Arrow IPC file (missing magic)",
                        new IllegalStateException("missing magic")));

        assertThat(JobCli.describe(failed))
                .isEqualTo("Job execution failed. (caused by IOException: /data/_descriptors/a.arrow: not an Arrow IPC"
                        + " file"
                        + " (missing magic))");
    }

    @Test
    void aMessageOverSeveralLinesIsDescribedOnOne() {
        Exception failed = new RuntimeException(
                "Job execution failed.", new IOException("upload part #1 on base/a.blob:\n  Broken pipe\r\n"));

        assertThat(JobCli.describe(failed))
                .isEqualTo("Job execution failed. (caused by IOException: upload part #1 on base/a.blob: Broken pipe)");
    }
}
