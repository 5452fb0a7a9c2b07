package io.blobingest.bench.internal;

import io.blobingest.bench.SteadyFigures;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Watches a contender's JVM from the bench's while it runs: every {@link #PERIOD} the input its
 * consumer group has committed (offsets turned into value bytes with the sizes the bench
 * preloaded) and the JVM's CPU time. The same rule for every contender, nothing measured inside
 * it; {@link SteadyWindow} picks the steady phase out of the samples. When the contender is
 * profiled, the monitor also tells it when its committed input crosses the window's ends ({@link
 * ChildProfiler#STEADY_FROM}, {@link ChildProfiler#STEADY_TO} on its standard input), so that its
 * profile of the steady phase covers the same window.
 */
final class SteadyStateMonitor {

    static final Duration PERIOD = BenchRunner.STEADY_SAMPLE_PERIOD;
    private static final long ADMIN_TIMEOUT_MS = 5_000;

    private final String bootstrapServers;
    private final String groupId;
    /** Per input topic, per partition, the value bytes of its records before each offset. */
    private final Map<String, long[][]> bytesBeforeOffset;

    private final long totalBytes;
    private final List<SteadyWindow.Sample> samples = new ArrayList<>();
    private Thread thread;
    private volatile boolean stopped;
    private volatile Exception failure;

    /**
     * @param bytesBeforeOffset per input topic (one, or a fleet's), per partition, the value bytes of its records
     *     before each offset (one more entry than records)
     */
    SteadyStateMonitor(String bootstrapServers, String groupId, Map<String, long[][]> bytesBeforeOffset) {
        this.bootstrapServers = bootstrapServers;
        this.groupId = groupId;
        this.bytesBeforeOffset = Map.copyOf(bytesBeforeOffset);
        long total = 0;
        for (long[][] topic : bytesBeforeOffset.values()) {
            for (long[] partition : topic) {
                total += partition[partition.length - 1];
            }
        }
        this.totalBytes = total;
    }

    /**
     * @param marks the profiled contender's standard input, to write the window's marks to; empty if
     *     it is not profiled
     */
    void start(ProcessHandle process, Optional<OutputStream> marks) {
        Optional<Writer> writer = marks.map(out -> new OutputStreamWriter(out, StandardCharsets.UTF_8));
        thread = new Thread(() -> sample(process, writer), "steady-state-monitor-" + groupId);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sampling; the steady phase, or nothing if the run was too short to have one. */
    Optional<SteadyFigures> stop() throws InterruptedException {
        stopped = true;
        thread.join();
        if (failure != null) {
            throw new IllegalStateException("watching consumer group " + groupId + " failed", failure);
        }
        return SteadyWindow.select(samples, totalBytes);
    }

    private void sample(ProcessHandle process, Optional<Writer> marks) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        String[] markLines = {ChildProfiler.STEADY_FROM, ChildProfiler.STEADY_TO};
        long[] markBytes = {SteadyWindow.fromBytes(totalBytes), SteadyWindow.toBytes(totalBytes)};
        int marked = 0;
        try (Admin admin = Admin.create(config)) {
            while (!stopped && process.isAlive()) {
                long committed = committedBytes(admin);
                long cpu =
                        process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
                samples.add(new SteadyWindow.Sample(System.nanoTime(), committed, cpu));
                // Both marks at once if one commit crosses both ends: the window is empty then, as SteadyWindow finds.
                while (marks.isPresent() && marked < markLines.length && committed >= markBytes[marked]) {
                    marks.get().write(markLines[marked++] + "\n");
                    marks.get().flush();
                }
                Thread.sleep(PERIOD.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | IOException | RuntimeException e) {
            failure = e;
        }
    }

    private long committedBytes(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata()
                .get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        long bytes = 0;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : offsets.entrySet()) {
            long[][] topic = bytesBeforeOffset.get(entry.getKey().topic());
            if (topic != null && entry.getValue() != null) {
                long[] before = topic[entry.getKey().partition()];
                bytes += before[(int) Math.min(entry.getValue().offset(), before.length - 1)];
            }
        }
        return bytes;
    }
}
