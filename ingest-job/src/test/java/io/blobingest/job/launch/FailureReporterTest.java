package io.blobingest.job.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;

class FailureReporterTest {

    @Test
    void aFailureTheJobRestartsFromIsOneLineWithTimeRootCauseAndWhatHappensNext() {
        JobID job = JobID.fromHexString("0123456789abcdef0123456789abcdef");
        Exception failure = new RuntimeException(
                "Checkpoint was declined",
                new IOException("completeMultipartUpload on base/set-1/pack-0.blob:\n  500 Internal Error"));

        assertThat(FailureReporter.line(job, 3_723_000L, failure))
                .isEqualTo("blob-ingest: job 0123456789abcdef0123456789abcdef failed at 01:02:03 UTC and restarts from"
                        + " its last checkpoint: Checkpoint was declined (caused by IOException:"
                        + " completeMultipartUpload on base/set-1/pack-0.blob: 500 Internal Error)");
    }
}
