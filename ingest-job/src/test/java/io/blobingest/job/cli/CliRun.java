package io.blobingest.job.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the command line, with what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = BlobIngestCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exitCode, out.toString(), err.toString());
    }
}
