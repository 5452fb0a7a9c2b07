package io.blobingest.cli.demo;

import java.io.IOException;
import java.nio.file.Files;

/**
 * Writes the files that the workload's External records name, into its external directory: the
 * directory the demo allow-lists with {@code external.allowed-prefixes}.
 */
public final class ExternalFiles {

    private ExternalFiles() {}

    /** @return how many files were written */
    public static int write(DemoWorkload workload) throws IOException {
        Files.createDirectories(workload.externalDirectory());
        int written = 0;
        for (int i = 0; i < workload.count(); i++) {
            if (workload.hasFile(i)) {
                Files.write(workload.file(i), workload.fileBytes(i));
                written++;
            }
        }
        return written;
    }
}
