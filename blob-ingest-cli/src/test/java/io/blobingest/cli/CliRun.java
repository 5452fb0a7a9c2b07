package io.blobingest.cli;

import io.blobingest.job.launch.JobCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the command line, with what it printed. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun of(String... args) {
        return of(BlobIngestCli.commandLine(), args);
    }

    /** One run of {@code commandLine}, such as {@code blob-ingest} with more commands added. */
    public static CliRun of(CommandLine commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = JobCli.execute(commandLine, args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exitCode, out.toString(), err.toString());
    }
}
