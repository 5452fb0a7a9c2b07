package io.blobingest.bench.internal;

import io.blobingest.cli.BlobIngestCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * blob-ingest's {@code run} command line, unbounded, on a daemon thread of its own in this JVM's
 * MiniCluster: the JVM's exit ends it. While the contender measures, a run that ended has failed.
 */
final class BackgroundRun {

    private final AtomicReference<String> ended = new AtomicReference<>();

    private BackgroundRun() {}

    /**
     * @param out where the command prints
     * @param during what the run ending would have interrupted, for the message
     */
    static BackgroundRun start(List<String> runArguments, PrintWriter out, String during) {
        BackgroundRun run = new BackgroundRun();
        Thread job = new Thread(
                () -> {
                    StringWriter errors = new StringWriter();
                    int exit = BlobIngestCli.execute(
                            runArguments.toArray(String[]::new), out, new PrintWriter(errors, true));
                    run.ended.set("blob-ingest run ended (exit " + exit + ") " + during + ": "
                            + errors.toString().strip());
                },
                "blob-ingest-run");
        job.setDaemon(true);
        job.start();
        return run;
    }

    /** Why the run ended, if it did. */
    Optional<String> ended() {
        return Optional.ofNullable(ended.get());
    }
}
