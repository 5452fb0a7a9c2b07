package io.blobingest.cli;

/** Values shared by commands. */
final class CliArguments {

    private CliArguments() {}

    /** The {@code created_by} written into pack metadata. */
    static String createdBy() {
        String version = CliArguments.class.getPackage().getImplementationVersion();
        return "blob-ingest " + (version == null ? "dev" : version);
    }
}
