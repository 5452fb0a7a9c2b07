package io.blobingest.job.launch;

import java.io.IOException;
import java.io.PrintWriter;
import org.apache.flink.annotation.PublicEvolving;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The job jar's command line, the main class for {@code flink run -c io.blobingest.job.launch.JobCli
 * blob-ingest-job.jar}: only the commands that submit a job, {@code run} and {@code backfill}, with
 * the same options as in {@code ./blob-ingest}. Exit codes: 0 success, 1 the command ran and found
 * a fault (or an I/O error), 2 bad arguments. The full command line ({@code BlobIngestCli}, module
 * blob-ingest-cli) adds its local commands to the same conventions.
 */
@Command(
        name = "blob-ingest",
        mixinStandardHelpOptions = true,
        versionProvider = JobCli.Version.class,
        description = "Exactly-once blob ingest from Kafka into Lance Blob v2 objects: the job's commands.",
        subcommands = {RunCommand.class, BackfillCommand.class})
@PublicEvolving
public final class JobCli implements Runnable {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAULT = 1;
    public static final int EXIT_USAGE = 2;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        exit(commandLine(new JobCli()), args);
    }

    /** Runs one command line of {@code commandLine} on stdout and stderr, and exits with its code. */
    public static void exit(CommandLine commandLine, String[] args) {
        System.exit(execute(commandLine, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line of the job's commands; used by {@link #main} and by tests. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(commandLine(new JobCli()), args, out, err);
    }

    /** Runs one command line of {@code commandLine} (made by {@link #commandLine(Object)}). */
    public static int execute(CommandLine commandLine, String[] args, PrintWriter out, PrintWriter err) {
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    /** A command line for {@code command} with this project's exit codes and one-line error reports. */
    public static CommandLine commandLine(Object command) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setExecutionExceptionHandler((exception, cmd, parseResult) -> {
            // A fault in the data or the file system, not a bug: one line, no stack trace.
            cmd.getErr().println("error: " + describe(exception));
            cmd.getErr().flush();
            return EXIT_FAULT;
        });
        commandLine.setParameterExceptionHandler((exception, args) -> {
            CommandLine cmd = exception.getCommandLine();
            cmd.getErr().println("error: " + exception.getMessage());
            CommandLine.Help help = cmd.getHelp();
            cmd.getErr()
                    .println((help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength())).stripTrailing());
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
        return cause == exception
                ? message
                : message + " (caused by " + cause.getClass().getSimpleName() + ": " + messageOf(cause) + ")";
    }

    /** The message on one line: an S3 or Kafka error's message may span several. */
    private static String messageOf(Throwable exception) {
        String message = exception.getMessage();
        return message == null
                ? exception.getClass().getSimpleName()
                : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The version of the jar this class was loaded from. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = JobCli.class.getPackage().getImplementationVersion();
            return new String[] {"blob-ingest " + (version == null ? "(development build)" : version)};
        }
    }
}
