package io.blobingest.job.launch;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that fails because its Kafka producer was fenced (another job took over its transactional
 * ids) ends with a message that says so and names the prefix, not with the connector's bare
 * exception. The fencing is thrown by the job itself here; {@code SecondJobITCase} shows that a
 * second job on a running job's prefix does not get to start.
 */
class FencedJobMessageITCase {

    @TempDir
    Path dir;

    @Test
    void aFencedJobFailsNamingItsTransactionalIdPrefix() throws Exception {
        RunCommand run = JobCli.commandLine(new JobCli())
                .parseArgs(
                        "run",
                        "--bootstrap-servers",
                        "localhost:1",
                        "--input-topic",
                        "in",
                        "--descriptor-topic",
                        "out",
                        "--dlq-topic",
                        "dlq",
                        "--group-id",
                        "shared-group",
                        "--base",
                        dir.resolve("base").toString(),
                        "--bounded")
                .subcommand()
                .commandSpec()
                .commandLine()
                .getCommand();
        Configuration config = run.configuration();
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.fromData(1)
                .map(
                        value -> {
                            if (value > 0) {
                                throw new ProducerFencedException(
                                        "There is a newer producer with the same transactionalId");
                            }
                            return value;
                        },
                        Types.INT)
                .sinkTo(new DiscardingSink<>());

        assertThatThrownBy(() -> run.job.execute(env, config))
                .hasMessageContaining("the job was fenced: another producer took over its Kafka transactional ids"
                        + " (prefix 'shared-group'")
                .hasMessageContaining("two jobs on one prefix fence each other's transactions")
                .hasRootCauseInstanceOf(ProducerFencedException.class);
    }
}
