package io.blobingest.sink.internal.writer;

import static io.blobingest.sink.internal.writer.WriterHarness.commit;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackVerifier;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.sink.TestBlobs;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.sharing.ContentHashing;
import io.blobingest.sink.internal.sharing.ContentId;
import io.blobingest.sink.internal.state.BlobSetWriterState;
import io.blobingest.sink.internal.state.SharedObjectsState;
import io.blobingest.sink.internal.state.WriterState;
import io.blobingest.sink.internal.state.WriterStateSerializer;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact sharing in one writer subtask, outside Flink: what is shared, with which blob sets, and
 * what a checkpoint and a restore keep of it.
 */
class ExactSharingWriterTest {

    private static final long MIB = 1024 * 1024;
    private static final int PACKED = 70 * 1024;
    private static final int DEDICATED = 5 * 1024 * 1024;

    @TempDir
    Path base;

    /** Input bytes by offset. */
    private final Map<Long, byte[]> written = new HashMap<>();

    @Test
    void duplicatesInOneSetNameTheFirstCopyAndStoreNoBytes() throws IOException {
        WriterHarness harness = sharing(ExactSharing.WITHIN_SUBTASK, 100);
        BlobSetCommittable set;
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(1, Placement.DEDICATED, 2, DEDICATED), null);
            writer.write(blob(2, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(3, Placement.DEDICATED, 2, DEDICATED), null);
            writer.write(blob(4, Placement.PACKED, 3, PACKED), null);
            set = single(writer.prepareCommit());
        }
        commit(List.of(set));

        List<DescriptorRow> rows = manifestRows(set.blobSet());
        assertThat(rows.get(2).blob()).isEqualTo(rows.get(0).blob());
        assertThat(rows.get(3).blob()).isEqualTo(rows.get(1).blob());
        assertThat(rows.get(4).blob()).isNotEqualTo(rows.get(0).blob());
        assertThat(rows).extracting(DescriptorRow::blobSet).containsOnly(set.blobSet());
        assertThat(set.count(SidecarKind.DEDICATED))
                .as("one Dedicated sidecar for two copies")
                .isEqualTo(1);
        assertThat(Files.size(sidecar(set.blobSet(), rows.get(0))))
                .as("the pack holds two payloads, not three")
                .isLessThan(3L * PACKED);
        assertReadBack(rows);
        assertThat(requiredFeatures(set.blobSet()))
                .as("a manifest naming only its own set is spec.md section 5's, unchanged")
                .doesNotContain(BlobFeatures.BLOB_SHARED_OBJECT);
        assertThat(set.sharingIndexEntries())
                .as("the index size at the seal: three contents stored")
                .isEqualTo(3);
    }

    @Test
    void aDuplicateInALaterSetNamesTheEarlierSetAndItsManifestRequiresSharedObjects() throws IOException {
        WriterHarness harness = sharing(ExactSharing.WITHIN_SUBTASK, 100);
        BlobSetCommittable first;
        BlobSetCommittable second;
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(1, Placement.DEDICATED, 2, DEDICATED), null);
            first = single(writer.prepareCommit());
            writer.write(blob(2, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(3, Placement.DEDICATED, 2, DEDICATED), null);
            writer.write(blob(4, Placement.INLINE, 5, 100), null);
            second = single(writer.prepareCommit());
        }
        commit(List.of(first, second));

        List<DescriptorRow> later = manifestRows(second.blobSet());
        assertThat(later.subList(0, 2)).extracting(DescriptorRow::blobSet).containsOnly(first.blobSet());
        assertThat(later.get(2).blobSet()).isNull();
        assertThat(second.sidecars())
                .as("the later set stores nothing of the duplicates")
                .isEmpty();
        assertThat(requiredFeatures(second.blobSet())).contains(BlobFeatures.BLOB_SHARED_OBJECT);
        assertReadBack(later);
        assertThat(List.of(first, second))
                .as("the index size at each seal: the later set stored nothing shareable")
                .extracting(BlobSetCommittable::sharingIndexEntries)
                .containsExactly(2L, 2L);
    }

    @Test
    void aRestoreSharesTheSetsSealedAtTheCheckpointButNeverTheSetItAbandoned() throws IOException {
        WriterHarness harness = sharing(ExactSharing.WITHIN_SUBTASK, 100);
        WriterStateSerializer serializer = harness.stateSerializer();
        List<BlobSetCommittable> committed = new ArrayList<>();
        List<byte[]> checkpoint = new ArrayList<>();
        RawPackSinkWriter failed = harness.writer();
        failed.write(blob(0, Placement.PACKED, 1, PACKED), null);
        committed.add(single(failed.prepareCommit()));
        for (WriterState part : failed.snapshotState(1)) {
            checkpoint.add(serializer.serialize(part));
        }
        // Written after checkpoint 1 and lost with the failure: its set never commits.
        failed.write(blob(1, Placement.PACKED, 2, PACKED), null);
        failed.close();

        List<WriterState> restored = new ArrayList<>();
        for (byte[] part : checkpoint) {
            restored.add(serializer.deserialize(serializer.getVersion(), part));
        }
        BlobSetCommittable afterRestore;
        try (RawPackSinkWriter writer = harness.restore(restored)) {
            writer.write(blob(1, Placement.PACKED, 2, PACKED), null);
            writer.write(blob(2, Placement.PACKED, 1, PACKED), null);
            afterRestore = single(writer.prepareCommit());
        }
        committed.add(afterRestore);
        commit(committed);

        List<DescriptorRow> rows = manifestRows(afterRestore.blobSet());
        assertThat(rows.get(0).blobSet())
                .as("the copy lost with the failure is stored again")
                .isEqualTo(afterRestore.blobSet());
        assertThat(rows.get(1).blobSet())
                .as("the copy committed before the checkpoint is shared")
                .isEqualTo(committed.get(0).blobSet());
        assertReadBack(rows);
        assertThat(afterRestore.sharingIndexEntries())
                .as("the restored object and the copy stored again")
                .isEqualTo(2);
    }

    /**
     * A shareable blob is placed only when the next one arrives (its hash is computed beside the
     * task, {@link ContentHashing}): the last blob before a checkpoint must still be in it.
     */
    @Test
    void theLastBlobWrittenBeforeASnapshotIsInItsStateThoughItWasStillHashing() throws IOException {
        WriterHarness harness =
                new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB, ExactSharing.WITHIN_SUBTASK, 100);
        List<WriterState> checkpoint;
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(1, Placement.PACKED, 2, PACKED), null);
            writer.write(blob(2, Placement.PACKED, 1, PACKED), null);
            checkpoint = writer.snapshotState(1);
        }

        BlobSetCommittable set;
        try (RawPackSinkWriter writer = harness.restore(checkpoint)) {
            writer.flush(true);
            set = single(writer.prepareCommit());
        }
        commit(List.of(set));

        List<DescriptorRow> rows = manifestRows(set.blobSet());
        assertThat(rows).as("every blob written before the snapshot").hasSize(3);
        assertThat(rows.get(2).blob())
                .as("the last one shares the first")
                .isEqualTo(rows.get(0).blob());
        assertReadBack(rows);
    }

    @Test
    void theIndexForgetsTheLeastRecentlyUsedObjectBeyondItsSize() throws IOException {
        WriterHarness harness = sharing(ExactSharing.WITHIN_SUBTASK, 2);
        BlobSetCommittable set;
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(1, Placement.PACKED, 2, PACKED), null);
            writer.write(blob(2, Placement.PACKED, 1, PACKED), null); // content 1 is now the most recent
            writer.write(blob(3, Placement.PACKED, 3, PACKED), null); // forgets content 2
            writer.write(blob(4, Placement.PACKED, 2, PACKED), null); // forgets content 1
            writer.write(blob(5, Placement.PACKED, 3, PACKED), null);
            set = single(writer.prepareCommit());
        }
        commit(List.of(set));

        List<DescriptorRow> rows = manifestRows(set.blobSet());
        assertThat(rows.get(2).blob()).isEqualTo(rows.get(0).blob());
        assertThat(rows.get(4).blob())
                .as("content 2 was forgotten")
                .isNotEqualTo(rows.get(1).blob());
        assertThat(rows.get(5).blob()).isEqualTo(rows.get(3).blob());
        assertReadBack(rows);
        assertThat(set.sharingIndexEntries()).as("at most the index size").isEqualTo(2);
    }

    @Test
    void objectsRememberedUnderAnotherBaseAreNotShared(@TempDir Path otherBase) throws IOException {
        WriterHarness old = sharing(ExactSharing.WITHIN_SUBTASK, 100);
        List<WriterState> checkpoint;
        try (RawPackSinkWriter writer = old.writer()) {
            writer.write(blob(0, Placement.PACKED, 1, PACKED), null);
            commit(writer.prepareCommit());
            checkpoint = writer.snapshotState(1);
        }
        assertThat(checkpoint).singleElement().isInstanceOf(SharedObjectsState.class);

        WriterHarness moved =
                new WriterHarness(otherBase, RollPolicy.ON_CHECKPOINT, 64 * MIB, ExactSharing.WITHIN_SUBTASK, 100);
        BlobSetCommittable set;
        try (RawPackSinkWriter writer = moved.restore(checkpoint)) {
            writer.write(blob(1, Placement.PACKED, 1, PACKED), null);
            set = single(writer.prepareCommit());
        }
        assertThat(set.count(SidecarKind.RAW_PACK)).isEqualTo(1);
    }

    @Test
    void withSharingOffEveryCopyIsStoredAndNoPackRecordsEntryHashes() throws IOException {
        WriterHarness harness = sharing(ExactSharing.OFF, 100);
        BlobSetCommittable set;
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.DEDICATED, 2, DEDICATED), null);
            writer.write(blob(1, Placement.DEDICATED, 2, DEDICATED), null);
            writer.write(blob(2, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(3, Placement.PACKED, 1, PACKED), null);
            set = single(writer.prepareCommit());
            assertThat(writer.snapshotState(1)).isEmpty();
        }
        commit(List.of(set));

        assertThat(set.count(SidecarKind.DEDICATED)).isEqualTo(2);
        Path pack = single(packs(List.of(set)));
        assertThat(footer(pack).entryCount()).isEqualTo(2);
        assertThat(footer(pack).hasEntrySha256()).isFalse();
        assertThat(new String(Files.readAllBytes(pack), StandardCharsets.ISO_8859_1))
                .doesNotContain(RawPackFormat.META_ENTRY_SHA256);
    }

    @Test
    void sizeOrTimeSharesWithinTheOpenSetAndCheckpointsOnlySealedObjects() throws IOException {
        WriterHarness harness =
                new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB, ExactSharing.WITHIN_JOB, 100);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 1, PACKED), null);
            writer.write(blob(1, Placement.PACKED, 1, PACKED), null);
            assertThat(writer.prepareCommit()).isEmpty();
            assertThat(writer.snapshotState(1))
                    .as("the open set's objects are not shareable across a restore yet")
                    .singleElement()
                    .isInstanceOf(BlobSetWriterState.class);
            writer.flush(true);
            BlobSetCommittable set = single(writer.prepareCommit());
            assertThat(writer.snapshotState(2))
                    .singleElement()
                    .isInstanceOfSatisfying(
                            SharedObjectsState.class,
                            state -> assertThat(state.objects())
                                    .singleElement()
                                    .satisfies(object ->
                                            assertThat(object.blobSet()).isEqualTo(set.blobSet())));
            commit(List.of(set));
            List<DescriptorRow> rows = manifestRows(set.blobSet());
            assertThat(rows.get(1).blob()).isEqualTo(rows.get(0).blob());
            assertReadBack(rows);
        }
    }

    @Test
    void withSharingOnEveryPacksFooterRecordsTheSha256OfEachEntrysPayload() throws IOException {
        WriterHarness harness =
                new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 200 * 1024, ExactSharing.WITHIN_JOB, 100);
        List<BlobSetCommittable> sets = new ArrayList<>();
        try (RawPackSinkWriter writer = harness.writer()) {
            long offset = 0;
            for (long content : new long[] {1, 2, 1, 3, 4, 2, 5}) {
                writer.write(blob(offset++, Placement.PACKED, content, PACKED), null);
            }
            sets.addAll(writer.prepareCommit());
            writer.write(blob(offset++, Placement.PACKED, 6, PACKED), null);
            writer.write(blob(offset, Placement.PACKED, 1, PACKED), null);
            sets.addAll(writer.prepareCommit());
        }
        commit(sets);

        List<Path> packs = packs(sets);
        assertThat(packs).as("the 200 KiB target rolls packs of 70 KiB entries").hasSizeGreaterThan(2);
        List<String> recorded = new ArrayList<>();
        for (Path pack : packs) {
            RawPackFooter footer = footer(pack);
            assertThat(footer.hasEntrySha256()).as(pack.toString()).isTrue();
            for (int i = 0; i < footer.entryCount(); i++) {
                assertRecordsPayloadSha256(pack, footer, i);
                recorded.add(HexFormat.of().formatHex(footer.entrySha256(i).orElseThrow()));
            }
            assertThat(new RawPackVerifier(RawPackReader.withAllFeatures()).verify(open(pack)))
                    .isEmpty();
        }
        assertThat(recorded)
                .as("each content stored once, shared copies adding no entries")
                .doesNotHaveDuplicates()
                .hasSize(6);
    }

    @Test
    void aPackKeptOpenAcrossACheckpointKeepsItsEntryHashes() throws IOException {
        WriterHarness harness =
                new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB, ExactSharing.WITHIN_SUBTASK, 100);
        WriterStateSerializer serializer = harness.stateSerializer();
        RawPackSinkWriter failed = harness.writer();
        failed.write(blob(0, Placement.PACKED, 1, PACKED), null);
        failed.write(blob(1, Placement.PACKED, 2, PACKED), null);
        byte[] checkpoint = serializer.serialize(single(failed.snapshotState(1)));
        failed.close();

        Path pack = restoreWriteAndSeal(
                harness,
                List.of(serializer.deserialize(serializer.getVersion(), checkpoint)),
                blob(2, Placement.PACKED, 3, PACKED));

        RawPackFooter footer = footer(pack);
        assertThat(footer.entryCount()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertRecordsPayloadSha256(pack, footer, i);
        }
    }

    @Test
    void aPackCheckpointedWithSharingOffRecordsNoHashForItsEarlierEntriesOnceSharingIsOn() throws IOException {
        WriterHarness off = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB, ExactSharing.OFF, 100);
        RawPackSinkWriter before = off.writer();
        before.write(blob(0, Placement.PACKED, 1, PACKED), null);
        List<WriterState> checkpoint = before.snapshotState(1);
        before.close();

        WriterHarness on = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB, ExactSharing.WITHIN_SUBTASK, 100);
        Path pack = restoreWriteAndSeal(on, checkpoint, blob(1, Placement.PACKED, 2, PACKED));

        RawPackFooter footer = footer(pack);
        assertThat(footer.hasEntrySha256()).isTrue();
        assertThat(footer.entrySha256(0))
                .as("written before hashes were recorded")
                .isEmpty();
        assertRecordsPayloadSha256(pack, footer, 1);
    }

    /**
     * Restores a writer from {@code checkpoint}, writes {@code blob}, seals the set as at end of
     * input, commits it and returns its one pack.
     */
    private Path restoreWriteAndSeal(WriterHarness harness, List<WriterState> checkpoint, PlacedBlob blob)
            throws IOException {
        BlobSetCommittable set;
        try (RawPackSinkWriter writer = harness.restore(checkpoint)) {
            writer.write(blob, null);
            writer.flush(true);
            set = single(writer.prepareCommit());
        }
        commit(List.of(set));
        return single(packs(List.of(set)));
    }

    private WriterHarness sharing(ExactSharing sharing, int indexSize) throws IOException {
        return new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 64 * MIB, sharing, indexSize);
    }

    /** Input {@code offset} carrying content {@code content} of {@code size} bytes. */
    private PlacedBlob blob(long offset, Placement placement, long content, int size) {
        byte[] bytes = content(content, size);
        written.put(offset, bytes);
        return new PlacedBlob(
                new BlobRecord(("k" + offset).getBytes(), bytes, List.of(), "t", 0, offset, null),
                placement,
                bytes,
                List.of(),
                null);
    }

    private static byte[] content(long content, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(content * 7919 + size).nextBytes(bytes);
        return bytes;
    }

    private static <T> T single(Collection<T> items) {
        assertThat(items).hasSize(1);
        return items.iterator().next();
    }

    /** The committed Raw Pack files of {@code sets}. */
    private List<Path> packs(List<BlobSetCommittable> sets) {
        List<Path> packs = new ArrayList<>();
        for (BlobSetCommittable set : sets) {
            for (PendingSidecar sidecar : set.sidecars()) {
                if (sidecar.kind() == SidecarKind.RAW_PACK) {
                    packs.add(base.resolve(set.blobSet()).resolve(BlobSets.sidecarFileName(sidecar.sidecarId())));
                }
            }
        }
        return packs;
    }

    private static ReadableObject open(Path pack) throws IOException {
        return new LocalBlobStorage().open(pack.toUri());
    }

    private static RawPackFooter footer(Path pack) throws IOException {
        try (ReadableObject object = open(pack)) {
            return RawPackReader.withAllFeatures().readFooter(object);
        }
    }

    /** The footer records, for entry {@code entry}, the SHA-256 of the payload bytes the entry names. */
    private static void assertRecordsPayloadSha256(Path pack, RawPackFooter footer, int entry) throws IOException {
        byte[] bytes = Files.readAllBytes(pack);
        int from = Math.toIntExact(footer.entryOffset(entry));
        byte[] payload = Arrays.copyOfRange(bytes, from, from + Math.toIntExact(footer.entryLength(entry)));
        assertThat(footer.entrySha256(entry))
                .as("entry %d of %s", entry, pack)
                .map(HexFormat.of()::formatHex)
                .contains(HexFormat.of().formatHex(ContentId.newDigest().digest(payload)));
    }

    private List<DescriptorRow> manifestRows(String blobSet) throws IOException {
        Map<String, List<DescriptorRow>> manifests = new StoredBlobs(base).committedManifests();
        assertThat(manifests).containsKey(blobSet);
        return manifests.get(blobSet);
    }

    private List<String> requiredFeatures(String blobSet) throws IOException {
        try (DescriptorManifestReader reader = DescriptorManifestReader.open(
                new org.apache.flink.core.fs.Path(base.resolve(BlobSets.DESCRIPTORS_DIRECTORY)
                        .resolve(blobSet + BlobSets.MANIFEST_SUFFIX)
                        .toUri()))) {
            return reader.requiredFeatures();
        }
    }

    private Path sidecar(String blobSet, DescriptorRow row) {
        return base.resolve(blobSet).resolve(BlobSets.sidecarFileName(row.blob().blobId()));
    }

    /** Every row resolves, through the blob set it names, to exactly its input's bytes. */
    private void assertReadBack(List<DescriptorRow> rows) throws IOException {
        StoredBlobs stored = new StoredBlobs(base);
        for (DescriptorRow row : rows) {
            assertThat(row.blob().kind()).isNotEqualTo(BlobKind.EXTERNAL);
            byte[] input = written.get(row.sourceOffset());
            assertThat(stored.resolve(row)).as(row.source()).isEqualTo(input);
            assertThat(row.crc32c()).as(row.source()).isEqualTo(TestBlobs.crc32c(input));
        }
    }
}
