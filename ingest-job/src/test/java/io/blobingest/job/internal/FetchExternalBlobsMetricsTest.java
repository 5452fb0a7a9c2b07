package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.placement.PlacementPolicy;
import io.blobingest.storage.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.metrics.NoOpMetricRegistry;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The fetch stage's metrics, as registered with Flink's metric system. */
class FetchExternalBlobsMetricsTest {

    private static final ExternalFetchSettings SETTINGS =
            new ExternalFetchSettings(4, new RetryPolicy(3, Duration.ZERO), Duration.ofSeconds(30));
    private static final ExternalBlobFetcher FETCHER =
            new ExternalBlobFetcher(new PlacementPolicy(10, 100, 1000), 500, SETTINGS.retries(), List.of("file:/"));
    private static final int FETCH_THREADS = 4;
    private static final int RETRIES_PER_THREAD = 2_000_000;

    @Test
    void theRetriesCounterCountsEveryRetryOfFetchThreadsRetryingAtOnce() throws Exception {
        Map<String, Metric> registered = new ConcurrentHashMap<>();
        MockEnvironment environment = new MockEnvironmentBuilder()
                .setMetricGroup(taskMetricGroup(registered))
                .build();
        try (var harness = new OneInputStreamOperatorTestHarness<>(
                new FetchExternalBlobsFactory(FETCHER, SETTINGS),
                ClassifyRecords.OUTPUT_TYPE.createSerializer(new SerializerConfigImpl()),
                environment)) {
            harness.open();
            Counter retries = (Counter) registered.get("retries");

            // The fetch threads of one subtask, each counting its retries as the fetch callback does.
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < FETCH_THREADS; i++) {
                Thread thread = new Thread(() -> {
                    AtomicLong retriesOfThisThread = new AtomicLong();
                    awaitQuietly(start);
                    // A memory fence per retry, as a real fetch thread has (logging, I/O): the
                    // compiler cannot merge the increments into one store.
                    while (retriesOfThisThread.incrementAndGet() <= RETRIES_PER_THREAD) {
                        retries.inc();
                    }
                });
                thread.start();
                threads.add(thread);
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }

            assertThat(retries.getCount()).isEqualTo((long) FETCH_THREADS * RETRIES_PER_THREAD);
        }
    }

    /** A task's metric group whose registry keeps every metric registered under it, by name. */
    private static TaskMetricGroup taskMetricGroup(Map<String, Metric> registered) {
        NoOpMetricRegistry registry = new NoOpMetricRegistry() {
            @Override
            public void register(Metric metric, String name, AbstractMetricGroup<?> group) {
                registered.put(name, metric);
            }
        };
        return TaskManagerMetricGroup.createTaskManagerMetricGroup(registry, "localhost", ResourceID.generate())
                .addJob(new JobID(), "job")
                .addTask(ExecutionAttemptID.randomId(), "fetch");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
