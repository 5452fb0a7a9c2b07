package io.blobingest.cli;

import io.blobingest.job.launch.BackfillCommand;
import io.blobingest.job.launch.JobCli;
import io.blobingest.job.launch.RunCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code blob-ingest} command line: the job's commands ({@link JobCli}) run in a local Flink
 * MiniCluster, and the local ones. Exit codes as for {@link JobCli}.
 */
@Command(
        name = "blob-ingest",
        mixinStandardHelpOptions = true,
        versionProvider = JobCli.Version.class,
        description = "Exactly-once blob ingest from Kafka into Lance Blob v2 objects.",
        subcommands = {
            DemoCommand.class,
            RunCommand.class,
            BackfillCommand.class,
            DescriptorsCommand.class,
            PackCommand.class,
            BlobCommand.class,
            GcCommand.class
        })
public final class BlobIngestCli implements Runnable {

    public static final int EXIT_OK = JobCli.EXIT_OK;
    public static final int EXIT_FAULT = JobCli.EXIT_FAULT;
    public static final int EXIT_USAGE = JobCli.EXIT_USAGE;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        JobCli.exit(commandLine(), args);
    }

    /** Runs one command line; used by {@link #main} and by tests. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return JobCli.execute(commandLine(), args, out, err);
    }

    public static CommandLine commandLine() {
        return JobCli.commandLine(new BlobIngestCli());
    }
}
