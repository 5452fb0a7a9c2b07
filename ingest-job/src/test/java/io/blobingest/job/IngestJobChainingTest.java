package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.sink.ExactSharing;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.runtime.OperatorIDPair;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job graph Flink builds from {@link IngestJob}. A failed copy of an External object into a
 * Dedicated sidecar ({@code ExternalCopyException}) becomes a dead letter only because it travels
 * from the sink writer back, through {@code output.collect}, into {@code FailedCopiesToDeadLetters}:
 * that works only while the two are chained in one task. Unchained, the exception would fail the
 * sink's task instead (loud, never a loss; see docs/exactly-once.md), on every replay of the record.
 */
class IngestJobChainingTest {

    @TempDir
    Path base;

    @Test
    void theFetchStageTheDescriptorSizeCheckAndTheRawPackSinkWriterAreChainedInOneTask() {
        JobGraph graph = jobGraph(ExactSharing.OFF);

        JobVertex fetch = vertexOf(graph, IngestJob.FETCH_UID);
        assertThat(vertexOf(graph, IngestJob.CHECK_DESCRIPTOR_SIZE_UID))
                .as("the descriptor size check's task")
                .isSameAs(fetch);
        assertThat(vertexOf(graph, IngestJob.FAILED_COPIES_UID))
                .as("the failed copies' task")
                .isSameAs(fetch);
        assertThat(vertexOf(graph, IngestJob.SINK_UID))
                .as("the Raw Pack sink writer's task")
                .isSameAs(fetch);
    }

    @Test
    void behindWithinJobRoutingTheFailedCopiesAreChainedToTheRawPackSinkWriter() {
        JobGraph graph = jobGraph(ExactSharing.WITHIN_JOB);

        JobVertex writer = vertexOf(graph, IngestJob.SINK_UID);
        assertThat(vertexOf(graph, IngestJob.FAILED_COPIES_UID))
                .as("the failed copies' task")
                .isSameAs(writer);
        assertThat(vertexOf(graph, IngestJob.FETCH_UID))
                .as("the fetch stage's task, in front of the routing")
                .isNotSameAs(writer);
    }

    /**
     * {@code DeadLetterDeliveries} counts the dead-letter sink's epochs in its own snapshot, which
     * must be the same synchronous call as the sink writer's, and sends aborted dead letters again
     * into the writer's current transaction: both need it chained to the writer. Its input is a union
     * of side outputs, so the chain is not the source's (see its {@code endInput}).
     */
    @Test
    void theDeadLetterDeliveryCheckIsChainedToTheDeadLetterSinkWriter() {
        JobGraph graph = jobGraph(ExactSharing.OFF);

        JobVertex check = vertexOf(graph, IngestJob.DEAD_LETTER_DELIVERIES_UID);
        assertThat(vertexOf(graph, IngestJob.DEAD_LETTER_SINK_UID))
                .as("the dead-letter sink writer's task")
                .isSameAs(check);
        assertThat(vertexOf(graph, IngestJob.SOURCE_UID))
                .as("the source's task")
                .isNotSameAs(check);
    }

    private JobGraph jobGraph(ExactSharing sharing) {
        return GraphOnlyJob.build(base, sharing).getStreamGraph().getJobGraph();
    }

    /** The one task (job vertex) holding the operator of {@code uid}. */
    private static JobVertex vertexOf(JobGraph graph, String uid) {
        List<JobVertex> holding = graph.getVerticesSortedTopologicallyFromSources().stream()
                .filter(vertex -> vertex.getOperatorIDs().stream()
                        .map(OperatorIDPair::getUserDefinedOperatorUid)
                        .anyMatch(uid::equals))
                .toList();
        assertThat(holding)
                .as("tasks holding operator %s; the graph: %s", uid, describe(graph))
                .hasSize(1);
        return holding.get(0);
    }

    private static String describe(JobGraph graph) {
        return graph.getVerticesSortedTopologicallyFromSources().stream()
                .map(vertex -> vertex.getName() + " "
                        + vertex.getOperatorIDs().stream()
                                .map(OperatorIDPair::getUserDefinedOperatorUid)
                                .toList())
                .collect(Collectors.joining("; "));
    }
}
