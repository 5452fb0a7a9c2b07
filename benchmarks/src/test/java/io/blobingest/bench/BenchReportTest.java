package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.bench.internal.BenchReport;
import io.blobingest.bench.internal.BenchRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static final BenchRunner.Settings FOUR_TOPICS =
            new BenchRunner.Settings(400_000_000, 2, 4, "2s", 10_000, 42, false, false, Optional.empty(), List.of());

    @Test
    void theFleetComparisonIsALineWithBothTimesAndTheRatioAndARowOfTheContenderTable() {
        WorkloadOutcome outcome =
                WorkloadOutcomeTest.fleetOutcome(WorkloadOutcomeTest.contender("blob-ingest-4-topics", 1_000, 4));

        String report = print(outcome);

        assertThat(report)
                .contains("\nfleet: the same records again, round-robin over 4 topics of 2 partitions, blob-ingest on"
                        + " all of them as one job (--input-topic a,b,...), bounded: 4.0 s against 5.0 s on one topic;"
                        + " fleet/one topic 1.25 (bytes/s, whole run; above 1 the fleet is faster)\n")
                .containsPattern("\nblob-ingest-4-topics +1,000 +4\\.0 ")
                .endsWith(outcome.resultLine() + "\n" + outcome.streamingResultLine() + "\n");
        assertThat(outcome.resultLine()).endsWith(" fleet_vs_one_topic=1.25");
    }

    @Test
    void withoutTheFleetComparisonThereIsNoFleetLine() {
        String report = print(WorkloadOutcomeTest.outcome(1_000, WorkloadOutcomeTest.read(10_000, 10_000)));

        assertThat(report).contains("\nblob-ingest ").doesNotContain("fleet");
    }

    private static String print(WorkloadOutcome outcome) {
        StringWriter text = new StringWriter();
        new BenchReport(new PrintWriter(text, true), FOUR_TOPICS).print(outcome);
        return text.toString().replace(System.lineSeparator(), "\n");
    }
}
