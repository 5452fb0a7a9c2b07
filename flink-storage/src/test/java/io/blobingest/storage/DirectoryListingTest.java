package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryListingTest {

    private static final int FILES = 200;

    @TempDir
    java.nio.file.Path dir;

    @Test
    void aMissingDirectoryListsAsEmpty() throws Exception {
        assertThat(DirectoryListing.list(new Path(dir.resolve("absent").toUri())))
                .isEmpty();
    }

    /**
     * A running job renames its in-progress files to their committed names in the directory being
     * listed: Flink's local file system fails such a listing with a FileNotFoundException for the
     * vanished name, which must neither escape nor read as an empty directory.
     */
    @Test
    void aDirectoryWhoseFilesAreRenamedWhileItIsListedListsEveryOtherFile() throws Exception {
        for (int i = 0; i < FILES; i++) {
            Files.createFile(dir.resolve("file-" + i));
        }
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Long> renamer = CompletableFuture.supplyAsync(() -> {
            long renames = 0;
            java.nio.file.Path a = dir.resolve(".moving.inprogress");
            java.nio.file.Path b = dir.resolve("moving");
            try {
                Files.createFile(a);
                while (!stop.get()) {
                    Files.move(a, b, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(b, a, StandardCopyOption.ATOMIC_MOVE);
                    renames += 2;
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return renames;
        });
        try {
            for (int listing = 0; listing < 2_000; listing++) {
                long steady = DirectoryListing.list(new Path(dir.toUri())).stream()
                        .filter(status -> status.getPath().getName().startsWith("file-"))
                        .count();
                assertThat(steady)
                        .as("files that are not renamed, listing %d", listing)
                        .isEqualTo(FILES);
            }
        } finally {
            stop.set(true);
        }
        assertThat(renamer.get()).as("renames while listing").isPositive();
    }
}
