package io.blobingest.job.cli;

import java.io.IOException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code blob-ingest} command line. Exit codes: 0 success, 1 the command ran and found a fault
 * (or an I/O error), 2 bad arguments.
 */
@Command(
        name = "blob-ingest",
        mixinStandardHelpOptions = true,
        versionProvider = BlobIngestCli.Version.class,
        description = "Exactly-once blob ingest from Kafka into Lance Blob v2 objects.",
        subcommands = {DemoCommand.class, BenchCommand.class, RunCommand.class, BackfillCommand.class, DescriptorsCommand.class, PackCommand.class, BlobCommand.class,
                GcCommand.class})
public final class BlobIngestCli implements Runnable {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAULT = 1;
    public static final int EXIT_USAGE = 2;

    @Spec CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line; used by {@link #main} and by tests. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new BlobIngestCli());
        commandLine.setExecutionExceptionHandler(
                (exception, cmd, parseResult) -> {
                    // A fault in the data or the file system, not a bug: one line, no stack trace.
                    cmd.getErr().println("error: " + describe(exception));
                    cmd.getErr().flush();
                    return EXIT_FAULT;
                });
        commandLine.setParameterExceptionHandler(
                (exception, args) -> {
                    CommandLine cmd = exception.getCommandLine();
                    cmd.getErr().println("error: " + exception.getMessage());
                    CommandLine.Help help = cmd.getHelp();
                    cmd.getErr().println((help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength())).stripTrailing());
                    cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more.");
                    cmd.getErr().flush();
                    return EXIT_USAGE;
                });
        return commandLine;
    }

    /**
     * The exception's message, and its cause's when that is another exception: a failed Flink job
     * says only "Job execution failed." at the top of its chain. The cause shown is the deepest
     * {@link IOException} of the chain, which names the file or object at fault (a library's own
     * exception below it rarely does), else the root cause.
     */
    static String describe(Throwable exception) {
        Throwable root = exception;
        Throwable deepestIo = exception instanceof IOException ? exception : null;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (root instanceof IOException) {
                deepestIo = root;
            }
        }
        Throwable cause = deepestIo != null ? deepestIo : root;
        String message = messageOf(exception);
        return cause == exception ? message
                : message + " (caused by " + cause.getClass().getSimpleName() + ": " + messageOf(cause) + ")";
    }

    private static String messageOf(Throwable exception) {
        String message = exception.getMessage();
        return message == null ? exception.getClass().getSimpleName() : message;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = BlobIngestCli.class.getPackage().getImplementationVersion();
            return new String[] {"blob-ingest " + (version == null ? "(development build)" : version)};
        }
    }
}
