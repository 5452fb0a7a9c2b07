package io.blobingest.sink;

import java.nio.file.Path;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RawPackSinkITCase {

    private static final int BLOBS = 3000;

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SinkJob.miniCluster();

    @ParameterizedTest(name = "{0}")
    @EnumSource(RollPolicy.class)
    void everyBlobIsCommittedOnceByteExactAndItsDescriptorDeliveredOnce(RollPolicy policy, @TempDir Path base)
            throws Exception {
        SinkJob job = new SinkJob(base, policy, BLOBS, null);
        job.run();
        job.assertEveryBlobExactlyOnceAndByteExact();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RollPolicy.class)
    void boundedInputCommitsAndDeliversEveryBlobExactlyOnce(RollPolicy policy, @TempDir Path base) throws Exception {
        SinkJob job = new SinkJob(base, policy, 600, null);
        job.runToEndOfInput();
        job.assertEveryBlobExactlyOnceAndByteExact();
    }
}
