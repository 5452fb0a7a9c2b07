package io.blobingest.cli.e2e;

import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.sink.RawPackSinkOptions;
import java.time.Duration;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.core.fs.Path;

/**
 * What {@code ./blob-ingest run} and {@code backfill} do before they submit a job with a
 * checkpoint directory, for a test that runs a job in-process and then resumes it with the command
 * line: the job gets a fixed id, and its directory under {@code execution.checkpointing.dir}
 * records the job's lineage, so that the command line's start finds its checkpoints.
 */
final class LineageRecord {

    private LineageRecord() {}

    /** Fixes the job id in {@code config} and records the lineage of that job; before the environment is made. */
    static void writeFor(Configuration config) {
        String jobId = JobID.generate().toHexString();
        config.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, jobId);
        RetainedCheckpoints.recordLineage(
                new Path(config.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).toUri(),
                jobId,
                BlobKafkaConnectors.lineage(config).orElseThrow(),
                config.get(RawPackSinkOptions.BASE_PATH),
                Duration.ofHours(1));
    }
}
