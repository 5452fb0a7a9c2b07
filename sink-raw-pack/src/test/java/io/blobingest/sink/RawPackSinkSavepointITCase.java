package io.blobingest.sink;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A stop with a savepoint and a resume from it, under each roll policy: every blob exactly once in
 * the committed manifests and the descriptor sink's committed output, byte-exact, every committed
 * pack valid, nothing visible but committed blob sets.
 */
class RawPackSinkSavepointITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJob.miniCluster();

    @ParameterizedTest(name = "{0}")
    @EnumSource(RollPolicy.class)
    void everyBlobExactlyOnceAcrossStopWithSavepointAndResume(
            RollPolicy policy, @TempDir Path base, @TempDir Path savepoints) throws Exception {
        SinkJob job = new SinkJob(base, policy, 800, null, Duration.ofSeconds(8));
        job.runStoppedWithSavepointThenResumed(savepoints);
        job.assertEveryBlobExactlyOnceAndByteExact();
    }
}
