package io.blobingest.bench.internal;

import io.blobingest.cli.BlobIngestCli;
import io.blobingest.cli.demo.CommittedTopic;
import io.blobingest.job.RunBaseline;
import io.blobingest.job.RunSummary;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.Path;

/**
 * The real pipeline: the {@code run} command line exactly as a user types it, in this JVM's local
 * MiniCluster: {@code --bounded} ({@link #run}), or unbounded until every input record's descriptor
 * or dead letter is committed ({@link #runUntilDelivered}). Records read are the descriptors its
 * manifests committed plus the dead letters on its dead-letter topic.
 */
final class IngestContender {

    /** The line {@code run} prints when its job ends, with the job's net runtime. */
    private static final Pattern FINISHED = Pattern.compile("job \\S+ finished after (\\d+) ms");

    /** The line {@code run} prints for each failure its job restarts from. */
    private static final Pattern RESTARTED =
            Pattern.compile("job \\S+ failed at .* and restarts from its last checkpoint");

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(1);
    /** An unbounded run's whole input must be delivered within this, or it fails. */
    private static final Duration DELIVERY_DEADLINE = Duration.ofMinutes(30);

    private static final Duration POLL = Duration.ofMillis(50);

    private final List<String> runArguments;
    private final URI base;
    private final String bootstrapServers;
    private final String deadLetterTopic;

    IngestContender(List<String> runArguments, URI base, String bootstrapServers, String deadLetterTopic) {
        this.runArguments = List.copyOf(runArguments);
        this.base = base;
        this.bootstrapServers = bootstrapServers;
        this.deadLetterTopic = deadLetterTopic;
    }

    /**
     * The {@code run} command line without {@code --bounded}, on a thread of its own, until {@code records}
     * descriptors and dead letters are visible to a {@code read_committed} consumer of {@code descriptorTopic} and the
     * dead-letter topic; the job is left running, for this JVM's exit to end. The time is from the command's start to
     * then: unlike a bounded run's net runtime it includes the MiniCluster's start, and like it the delivery of the
     * last descriptors.
     *
     * @return records accounted for, logical bytes placed, that time, and how often the job failed over
     */
    Tally runUntilDelivered(String descriptorTopic, long records) throws Exception {
        RunBaseline baseline = RunBaseline.take(new Path(base));
        StringWriter output = new StringWriter();
        long started = System.nanoTime();
        BackgroundRun job =
                BackgroundRun.start(runArguments, new PrintWriter(output, true), "before its input was delivered");
        long delivered = 0;
        long deadLetters = 0;
        try (CommittedTopic descriptors = new CommittedTopic(bootstrapServers, descriptorTopic);
                CommittedTopic refused = new CommittedTopic(bootstrapServers, deadLetterTopic)) {
            while (delivered + deadLetters < records) {
                if (job.ended().isPresent()) {
                    throw new IllegalStateException(job.ended().get() + "\n" + output);
                }
                if (System.nanoTime() - started > DELIVERY_DEADLINE.toNanos()) {
                    throw new IllegalStateException(delivered + " descriptors and " + deadLetters + " dead letters of "
                            + records + " records after " + DELIVERY_DEADLINE + ": " + output);
                }
                delivered += descriptors.poll(POLL).size();
                deadLetters += refused.poll(Duration.ZERO).size();
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        System.out.print(output);
        RunSummary summary = RunSummary.of(baseline, elapsed, 1, Map.of());
        long restarts = RESTARTED.matcher(output.toString()).results().count();
        return new Tally(summary.descriptors() + deadLetters, summary.bytesPlaced(), elapsed, restarts);
    }

    /** Records accounted for, logical bytes placed, the job's net runtime, and how often it failed over. */
    Tally run() throws Exception {
        RunBaseline baseline = RunBaseline.take(new Path(base));
        StringWriter output = new StringWriter();
        StringWriter errors = new StringWriter();
        int exit = BlobIngestCli.execute(
                runArguments.toArray(String[]::new), new PrintWriter(output, true), new PrintWriter(errors, true));
        System.out.print(output);
        if (exit != BlobIngestCli.EXIT_OK) {
            throw new IllegalStateException("blob-ingest run exited with " + exit + ": "
                    + errors.toString().strip());
        }
        Matcher finished = FINISHED.matcher(output.toString());
        if (!finished.find()) {
            throw new IllegalStateException("blob-ingest run printed no 'finished after' line: " + output);
        }
        Duration runtime = Duration.ofMillis(Long.parseLong(finished.group(1)));
        RunSummary summary = RunSummary.of(baseline, runtime, 1, Map.of());
        long deadLetters;
        try (CommittedTopic topic = new CommittedTopic(bootstrapServers, deadLetterTopic)) {
            deadLetters = topic.readToEnd(READ_TIMEOUT).size();
        }
        long restarts = RESTARTED.matcher(output.toString()).results().count();
        return new Tally(summary.descriptors() + deadLetters, summary.bytesPlaced(), runtime, restarts);
    }
}
