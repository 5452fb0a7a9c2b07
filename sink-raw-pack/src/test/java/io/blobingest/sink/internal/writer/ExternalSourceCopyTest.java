package io.blobingest.sink.internal.writer;

import static io.blobingest.sink.internal.writer.WriterHarness.commit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.ExternalCopyException;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.sink.TestBlobs;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.storage.testing.FlakyFileSystem;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Dedicated blobs that the writer copies from their external object instead of receiving their bytes. */
class ExternalSourceCopyTest {

    private static final int MIB = 1024 * 1024;
    /** Two and a half copy chunks, so the last chunk is a partial one. */
    private static final int LENGTH = 5 * MIB / 2 + 17;

    private static final int OFFSET = 1000;

    @TempDir
    Path base;

    @TempDir
    Path external;

    @TempDir
    Path elsewhere;

    private Path object;
    private byte[] content;

    @BeforeEach
    void writeExternalObject() throws IOException {
        content = new byte[OFFSET + LENGTH + 500];
        new SplittableRandom(7).nextBytes(content);
        object = Files.write(external.resolve("video.bin"), content);
    }

    @Test
    void aDedicatedBlobIsCopiedByteExactFromItsSourceRangeWithTheCrc32cOfTheCopy() throws IOException {
        DescriptorRow row = writeAndCommit(object.toUri());

        byte[] expected = Arrays.copyOfRange(content, OFFSET, OFFSET + LENGTH);
        assertThat(row.blob()).isEqualTo(BlobDescriptor.dedicated(LENGTH, 1));
        assertThat(row.crc32c()).isEqualTo(crc32c(expected));
        assertThat(new StoredBlobs(base).resolve(row)).isEqualTo(expected);
        assertThat(StoredBlobs.hiddenFiles(base)).isEmpty();
    }

    @Test
    void aTransientReadFailureRestartsTheCopyInAFreshInProgressFile() throws IOException {
        FlakyFileSystem.failReads(object, 1, 3 * MIB / 2);

        DescriptorRow row = writeAndCommit(FlakyFileSystem.uri(object));

        byte[] expected = Arrays.copyOfRange(content, OFFSET, OFFSET + LENGTH);
        assertThat(FlakyFileSystem.remainingFailures(object)).isZero();
        assertThat(row.crc32c()).isEqualTo(crc32c(expected));
        assertThat(new StoredBlobs(base).resolve(row)).isEqualTo(expected);
        assertThat(StoredBlobs.hiddenFiles(base))
                .as("the failed try's in-progress file")
                .singleElement()
                .satisfies(file -> assertThat(file.getFileName().toString()).contains(".inprogress."));
    }

    @Test
    void aCopyThatKeepsFailingIsADeadLetterAfterEveryTryAndPublishesNothing() throws IOException {
        FlakyFileSystem.failReads(object, Integer.MAX_VALUE, 0);
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        URI source = FlakyFileSystem.uri(object);

        try (RawPackSinkWriter writer = harness.writer()) {
            assertThatThrownBy(() -> writer.write(copied(source, LENGTH), null))
                    .isInstanceOfSatisfying(ExternalCopyException.class, e -> {
                        assertThat(e.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
                        assertThat(e.getCause().getSuppressed())
                                .hasSize(WriterHarness.EXTERNAL_READ_RETRIES.attempts() - 1);
                    })
                    .hasMessageStartingWith("copying " + LENGTH + " bytes at offset " + OFFSET + " of " + source
                            + " into a Dedicated sidecar failed: ")
                    .hasMessageContaining("injected read failure");
        }
        assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
    }

    /**
     * The set opened for a blob whose copy failed would stay open without a row, and an empty set
     * cannot be sealed: the next checkpoint would fail the task, however the record was handled.
     */
    @ParameterizedTest
    @EnumSource(RollPolicy.class)
    void aFailedCopyAloneInItsSetLeavesNothingToSealAndTheNextBlobsGoOn(RollPolicy policy) throws IOException {
        FlakyFileSystem.failReads(object, Integer.MAX_VALUE, 0);
        WriterHarness harness = new WriterHarness(base, policy, 8 * MIB);

        try (RawPackSinkWriter writer = harness.writer()) {
            assertThatThrownBy(() -> writer.write(copied(FlakyFileSystem.uri(object), LENGTH), null))
                    .isInstanceOf(ExternalCopyException.class);
            writer.flush(false);
            assertThat(writer.prepareCommit()).isEmpty();
            assertThat(writer.snapshotState(1)).isEmpty();

            writer.write(copied(object.toUri(), LENGTH), null);
            writer.flush(true);
            commit(writer.prepareCommit());
        }
        assertThat(new StoredBlobs(base).committedManifests().values())
                .singleElement()
                .satisfies(rows -> assertThat(rows)
                        .singleElement()
                        .satisfies(row -> assertThat(new StoredBlobs(base).resolve(row))
                                .isEqualTo(Arrays.copyOfRange(content, OFFSET, OFFSET + LENGTH))));
    }

    @Test
    void aSourceThatEndsBeforeItsRangeIsADeadLetterNamingBothLengths() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);

        try (RawPackSinkWriter writer = harness.writer()) {
            assertThatThrownBy(() -> writer.write(copied(object.toUri(), content.length), null))
                    .isInstanceOf(ExternalCopyException.class)
                    .hasRootCauseInstanceOf(EOFException.class)
                    .hasMessageEndingWith(object.toUri() + " is " + content.length + " bytes long, " + content.length
                            + " bytes at offset " + OFFSET + " were expected");
        }
        assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
        assertThat(StoredBlobs.hiddenFiles(base))
                .as("no output is opened before the source is checked")
                .isEmpty();
    }

    @Test
    void aSourceDeletedBeforeItsCopyIsNotFound() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        Files.delete(object);

        try (RawPackSinkWriter writer = harness.writer()) {
            assertThatThrownBy(() -> writer.write(copied(object.toUri(), LENGTH), null))
                    .isInstanceOfSatisfying(
                            ExternalCopyException.class,
                            e -> assertThat(e.code()).isEqualTo(DeadLetterCode.NOT_FOUND));
        }
    }

    /**
     * The fetch stage checked the source and handed it on; a directory on its path swapped for a
     * symbolic link to a directory outside before the copy must not lead the copy there.
     */
    @Test
    void aSourceWhoseDirectoryBecameASymbolicLinkSinceTheFetchIsRefusedAndNothingIsCopied() throws IOException {
        Path sub = Files.createDirectories(external.resolve("sub"));
        Path source = Files.copy(object, sub.resolve("video.bin"));
        Path outside = Files.createDirectories(elsewhere.resolve("sub"));
        byte[] secret = new byte[content.length];
        new SplittableRandom(8).nextBytes(secret);
        Files.write(outside.resolve("video.bin"), secret);
        Files.move(sub, external.resolve("moved"));
        Files.createSymbolicLink(sub, outside);
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);

        try (RawPackSinkWriter writer = harness.writer()) {
            assertThatThrownBy(() -> writer.write(copied(source.toUri(), LENGTH), null))
                    .isInstanceOfSatisfying(
                            ExternalCopyException.class,
                            e -> assertThat(e.code()).isEqualTo(DeadLetterCode.URI_NOT_ALLOWED))
                    .hasMessageStartingWith("copying " + LENGTH + " bytes at offset " + OFFSET + " of " + source.toUri()
                            + " into a Dedicated sidecar failed: " + source.toUri() + ": ")
                    .hasMessageNotContaining(elsewhere.toString());
        }
        assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
        assertThat(StoredBlobs.hiddenFiles(base))
                .as("no output is opened for a refused source")
                .isEmpty();
    }

    /**
     * The copy runs on the task thread, and a read that never returns (here one
     * that ignores interrupts, too) held the checkpoint barrier for ever. Before the copy had bounds
     * this test ran into its own deadline.
     */
    @Test
    void aCopyWhoseReadsHangIsGivenUpAtItsBoundsAndTheSetGoesOnWithoutIt() {
        FlakyFileSystem.HungReads hung = FlakyFileSystem.hangReads(object);
        URI source = FlakyFileSystem.uri(object);
        Path other = external.resolve("other.bin");
        // Two stalls of 3 s, then the last try waits for a thread: 10 s leave room for both.
        Duration copyTimeout = Duration.ofSeconds(10);
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, copyTimeout);
            try (RawPackSinkWriter writer = harness.writer()) {
                assertThatThrownBy(() -> writer.write(copied(source, LENGTH), null))
                        .isInstanceOfSatisfying(ExternalCopyException.class, e -> {
                            assertThat(e.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
                            assertThat(e.getCause().getSuppressed())
                                    .as("the first two tries stalled")
                                    .hasSize(2)
                                    .allSatisfy(stalled -> assertThat(stalled)
                                            .hasMessage("no bytes arrived within "
                                                    + WriterHarness.COPY_STALL_TIMEOUT.toMillis()
                                                    + " ms (sink.raw-pack.external-copy-stall-timeout) after 0 bytes"));
                        })
                        .as("their threads still hang, the copy threads are bounded, and the last try waited "
                                + "for one of them until the copy timeout")
                        .hasMessageContaining("failed: the copy took longer than "
                                + copyTimeout.toMillis()
                                + " ms (sink.raw-pack.external-copy-timeout), 0 bytes were copied, waiting for a "
                                + "copy thread: all 2 are still in earlier reads that ignored their interrupts: "
                                + "[external-copy-0-")
                        .hasMessageContaining("(copying " + source + " into sidecar 1 of blob set ");
                hung.release(); // lets the interrupted threads end; the copy had not waited for that
                FlakyFileSystem.resumeReads(object);

                writer.write(copied(Files.write(other, content).toUri(), LENGTH), null);
                BlobSetCommittable set = writer.prepareCommit().iterator().next();
                assertThat(set.sidecars())
                        .as("the given-up copy is in no set")
                        .singleElement()
                        .satisfies(sidecar -> assertThat(sidecar.sidecarId()).isEqualTo(1));
                commit(List.of(set));
            }
            assertThat(new StoredBlobs(base).committedManifests().values())
                    .singleElement()
                    .satisfies(rows -> assertThat(rows)
                            .singleElement()
                            .satisfies(row -> assertThat(row.blob()).isEqualTo(BlobDescriptor.dedicated(LENGTH, 1))));
            assertThat(StoredBlobs.hiddenFiles(base))
                    .as("the partial copies stay hidden")
                    .allSatisfy(
                            file -> assertThat(file.getFileName().toString()).contains(".inprogress."));
        });
    }

    /**
     * With both copy threads still in reads that ignored their interrupts, the
     * next copy dead-lettered its record at once, though a thread freed up moments later. It waits
     * for a thread, within its copy timeout.
     */
    @Test
    void aCopyWaitsForACopyThreadToFreeUpInsteadOfDeadLetteringAtOnce() {
        FlakyFileSystem.HungReads hung = FlakyFileSystem.hangReads(object);
        URI hungSource = FlakyFileSystem.uri(object);
        Path other = external.resolve("other.bin");
        assertTimeoutPreemptively(
                Duration.ofMinutes(2),
                () -> {
                    Thread taskThread = Thread.currentThread();
                    WriterHarness harness =
                            new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, Duration.ofSeconds(10));
                    try (RawPackSinkWriter writer = harness.writer()) {
                        assertThatThrownBy(() -> writer.write(copied(hungSource, LENGTH), null))
                                .as("its tries leave both copy threads hung")
                                .isInstanceOf(ExternalCopyException.class);
                        Thread releaser = new Thread(() -> {
                            awaitWaitingForACopyThread(taskThread);
                            hung.release();
                        });
                        releaser.setDaemon(true);
                        releaser.start();

                        writer.write(copied(Files.write(other, content).toUri(), LENGTH), null);

                        BlobSetCommittable set =
                                writer.prepareCommit().iterator().next();
                        commit(List.of(set));
                    } finally {
                        hung.release();
                    }
                    DescriptorRow row = new StoredBlobs(base)
                            .committedManifests()
                            .values()
                            .iterator()
                            .next()
                            .get(0);
                    assertThat(new StoredBlobs(base).resolve(row))
                            .isEqualTo(Arrays.copyOfRange(content, OFFSET, OFFSET + LENGTH));
                },
                "the copy waited past its timeout");
        FlakyFileSystem.resumeReads(object);
    }

    @Test
    void aCopyThatTricklesIsGivenUpAtTheCopyTimeoutThoughEachChunkCameInTime() {
        FlakyFileSystem.trickleReads(object, 256 * 1024, Duration.ofMillis(500)); // 1 MiB in 2 s, the blob in 5 s
        URI source = FlakyFileSystem.uri(object);
        Duration copyTimeout = Duration.ofSeconds(4);
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, copyTimeout);
            try (RawPackSinkWriter writer = harness.writer()) {
                assertThatThrownBy(() -> writer.write(copied(source, LENGTH), null))
                        .isInstanceOf(ExternalCopyException.class)
                        .hasMessageContaining(
                                "the copy took longer than 4000 ms " + "(sink.raw-pack.external-copy-timeout)");
            }
            assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
        });
        FlakyFileSystem.resumeReads(object);
    }

    /**
     * A copy given up at its timeout while a pack is open: nothing of it is in the set (no row, no
     * sidecar, its sidecar id drawn again by the next Dedicated blob), the open pack goes on, and
     * only what the manifest names becomes visible.
     */
    @Test
    void aCopyGivenUpAtItsTimeoutLeavesTheOpenSetAsItWasBeforeTheBlob() {
        FlakyFileSystem.trickleReads(object, 256 * 1024, Duration.ofMillis(500)); // the blob in 5 s
        URI source = FlakyFileSystem.uri(object);
        Path other = external.resolve("other.bin");
        assertThat(List.of(TestBlobs.placement(1), TestBlobs.placement(9))).containsOnly(Placement.PACKED);
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, Duration.ofSeconds(4));
            try (RawPackSinkWriter writer = harness.writer()) {
                writer.write(TestBlobs.placed(1), null);
                assertThatThrownBy(() -> writer.write(copied(source, LENGTH), null))
                        .isInstanceOf(ExternalCopyException.class)
                        .hasMessageContaining("(sink.raw-pack.external-copy-timeout)");
                FlakyFileSystem.resumeReads(object);
                writer.write(TestBlobs.placed(9), null);
                writer.write(copied(Files.write(other, content).toUri(), LENGTH), null);
                BlobSetCommittable set = writer.prepareCommit().iterator().next();
                assertThat(set.rowCount()).isEqualTo(3);
                assertThat(set.sidecars())
                        .extracting(PendingSidecar::sidecarId, PendingSidecar::kind)
                        .containsExactlyInAnyOrder(tuple(1L, SidecarKind.RAW_PACK), tuple(2L, SidecarKind.DEDICATED));
                commit(List.of(set));
            }
            Map<String, List<DescriptorRow>> manifests = new StoredBlobs(base).committedManifests();
            List<DescriptorRow> rows = manifests.values().iterator().next();
            assertThat(rows).extracting(DescriptorRow::blob).element(2).isEqualTo(BlobDescriptor.dedicated(LENGTH, 2));
            StoredBlobs stored = new StoredBlobs(base);
            TestBlobs.assertDescribesItsBlob(rows.get(0), stored);
            TestBlobs.assertDescribesItsBlob(rows.get(1), stored);
            assertThat(stored.resolve(rows.get(2))).isEqualTo(Arrays.copyOfRange(content, OFFSET, OFFSET + LENGTH));
            stored.assertOnlyCommittedFilesAreVisible(manifests);
            assertThat(StoredBlobs.hiddenFiles(base))
                    .as("the given-up copy's partial sidecar")
                    .singleElement()
                    .satisfies(file -> assertThat(file.getFileName().toString()).contains(".inprogress."));
        });
    }

    /**
     * An interrupt of the task thread (Flink cancelling the task) during a copy is not the source's
     * fault: the write fails, the task with it, and the record is not dead-lettered.
     */
    @Test
    void aCopyOnAnInterruptedTaskThreadFailsTheWriteInsteadOfDeadLetteringTheRecord() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        try (RawPackSinkWriter writer = harness.writer()) {
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(() -> writer.write(copied(object.toUri(), LENGTH), null))
                        .isInstanceOf(InterruptedIOException.class)
                        .isNotInstanceOf(ExternalCopyException.class);
            } finally {
                Thread.interrupted();
            }
        }
    }

    /** Until {@code taskThread} waits in the copy for a copy thread to end (never returns on main). */
    private static void awaitWaitingForACopyThread(Thread taskThread) {
        while (!Arrays.stream(taskThread.getStackTrace())
                .anyMatch(frame -> frame.getMethodName().equals("awaitRoom"))) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private DescriptorRow writeAndCommit(URI source) throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(copied(source, LENGTH), null);
            BlobSetCommittable set = writer.prepareCommit().iterator().next();
            assertThat(set.sidecars()).singleElement().satisfies(sidecar -> {
                assertThat(sidecar.kind()).isEqualTo(SidecarKind.DEDICATED);
                assertThat(sidecar.length()).isEqualTo(LENGTH);
            });
            commit(List.of(set));
        }
        return new StoredBlobs(base)
                .committedManifests()
                .values()
                .iterator()
                .next()
                .get(0);
    }

    private static PlacedBlob copied(URI source, long length) {
        return PlacedBlob.copiedFrom(
                new ExternalBytes(source.toString(), OFFSET, length),
                new BlobRecord(null, null, List.of(), "t", 0, 0, null),
                List.of());
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
