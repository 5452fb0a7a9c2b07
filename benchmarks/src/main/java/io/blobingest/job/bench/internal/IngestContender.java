package io.blobingest.job.bench.internal;

import io.blobingest.job.RunBaseline;
import io.blobingest.job.RunSummary;
import io.blobingest.job.cli.BlobIngestCli;
import io.blobingest.job.demo.CommittedTopic;
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
 * The real pipeline: the {@code run} command line exactly as a user types it ({@code --bounded}),
 * in this JVM's local MiniCluster. Records read are the descriptors its manifests committed plus
 * the dead letters on its dead-letter topic.
 */
final class IngestContender {

    /** The line {@code run} prints when its job ends, with the job's net runtime. */
    private static final Pattern FINISHED = Pattern.compile("job \\S+ finished after (\\d+) ms");

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(1);

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

    /** Records accounted for, logical bytes placed, and the job's net runtime. */
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
        return new Tally(summary.descriptors() + deadLetters, summary.bytesPlaced(), runtime);
    }
}
