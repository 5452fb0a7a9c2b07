package io.blobingest.storage;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.ResolveContext;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import io.blobingest.storage.testing.InProgressUpload;
import io.blobingest.storage.testing.ObjectGet;
import io.blobingest.storage.testing.S3ServerExtension;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Objects written through Flink's {@link RecoverableWriter} (as the sinks write them) read back
 * through {@link FlinkFileSystemStorage}, on S3 (S3Proxy, through the flink-s3-fs-hadoop plugin)
 * and on the local file system.
 */
class FlinkFileSystemStorageITCase {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @TempDir
    static java.nio.file.Path localRoot;

    /** Above Flink's minimum S3 part size (5 MiB), so at least one part is uploaded before persist. */
    private static final int MORE_THAN_ONE_PART = 5 * 1024 * 1024 + 1000;

    private final FlinkFileSystemStorage storage = new FlinkFileSystemStorage();

    enum Store {
        S3,
        LOCAL
    }

    @BeforeAll
    static void initializeFileSystems() {
        S3.initializeFlinkFileSystems();
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void objectWrittenAcrossAFailureReadsBackByteExact(Store store) throws IOException {
        URI uri = uri(store, "recovered/object.blob");
        Path path = new Path(uri);
        RecoverableWriter writer = FileSystem.get(uri).createRecoverableWriter();
        byte[] persisted = randomBytes(MORE_THAN_ONE_PART, 1);
        byte[] lost = randomBytes(777, 2);
        byte[] afterRecovery = randomBytes(4321, 3);

        RecoverableFsDataOutputStream first = writer.open(path);
        first.write(persisted);
        byte[] checkpointed = serialize(writer.getResumeRecoverableSerializer(), first.persist());
        first.write(lost);
        first.close(); // the task fails: what was written after persist() is gone

        RecoverableWriter.ResumeRecoverable resumable =
                deserialize(writer.getResumeRecoverableSerializer(), checkpointed);
        RecoverableFsDataOutputStream second = writer.recover(resumable);
        assertThat(second.getPos()).isEqualTo(persisted.length);
        second.write(afterRecovery);
        second.closeForCommit().commit();

        byte[] expected = concat(persisted, afterRecovery);
        try (ReadableObject object = storage.open(uri)) {
            assertThat(object.length()).isEqualTo(expected.length);
            assertThat(object.location()).isEqualTo(uri.toString());
            assertRangeReadsBack(object, expected, expected.length - 64 * 1024, 64 * 1024);
            assertRangeReadsBack(object, expected, 0, 16);
            assertRangeReadsBack(object, expected, persisted.length - 100, 200);
            assertRangeReadsBack(object, expected, 5 * 1024 * 1024 - 10, 20);
            assertRangeReadsBack(object, expected, 0, expected.length);
        }
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void commitAfterRecoveryTwiceIsHarmless(Store store) throws IOException {
        URI uri = uri(store, "committed-twice/object.blob");
        RecoverableWriter writer = FileSystem.get(uri).createRecoverableWriter();
        byte[] content = randomBytes(10_000, 4);

        RecoverableFsDataOutputStream out = writer.open(new Path(uri));
        out.write(content);
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
        byte[] checkpointed = serialize(writer.getCommitRecoverableSerializer(), committer.getRecoverable());
        committer.commit();

        // Restored from the checkpoint after the commit already happened, then again.
        for (int attempt = 0; attempt < 2; attempt++) {
            writer.recoverForCommit(deserialize(writer.getCommitRecoverableSerializer(), checkpointed))
                    .commitAfterRecovery();
        }

        try (ReadableObject object = storage.open(uri)) {
            byte[] all = new byte[content.length];
            object.readFully(0, all, 0, all.length);
            assertThat(all).isEqualTo(content);
        }
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void missingObjectIsFileNotFoundNamingTheUri(Store store) {
        URI uri = uri(store, "missing/never-written.blob");

        assertThatThrownBy(() -> storage.open(uri))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageStartingWith(uri + " does not exist");
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void readPastTheEndIsEofNamingUriOffsetAndLength(Store store) throws IOException {
        URI uri = uri(store, "short/object.blob");
        writeAndCommit(uri, randomBytes(100, 5));

        try (ReadableObject object = storage.open(uri)) {
            assertThatThrownBy(() -> object.readFully(90, new byte[20], 0, 20))
                    .isInstanceOf(EOFException.class)
                    .hasMessage(uri + ": wanted 20 bytes at offset 90, the object is 100 bytes long");
        }
    }

    @Test
    void eachRangedReadIsOneGetOfExactlyItsBytes() throws IOException {
        String key = "requests/object.blob";
        URI uri = S3.uri(key);
        int length = 3 * 1024 * 1024;
        byte[] content = randomBytes(length, 6);
        writeAndCommit(uri, content);
        S3.clearRecordedReads();

        try (ReadableObject object = storage.open(uri)) {
            assertThat(S3.recordedGets()).as("open reads metadata only").isEmpty();
            assertThat(S3.recordedHeads()).as("open reads the object's status").containsExactly(key);

            int footer = 64 * 1024;
            assertRangeReadsBack(object, content, length - footer, footer);
            int middle = 1024 * 1024;
            assertRangeReadsBack(object, content, middle, 200 * 1024);
            // 300 KiB forward: Flink's seek() would skip() this gap by reading it.
            int forward = middle + 200 * 1024 + 300 * 1024;
            assertRangeReadsBack(object, content, forward, 10 * 1024);
            // Right after the previous read: a GET of its own, the previous one ended with its read.
            assertRangeReadsBack(object, content, forward + 10 * 1024, 20 * 1024);
            assertRangeReadsBack(object, content, 16, 1024 * 1024);

            // Each GET asks for exactly the bytes read, not S3A's 64 KiB readahead: with small blobs
            // the readahead's bytes were most of what crossed the link (docs/benchmarks.md).
            assertThat(S3.recordedGets())
                    .containsExactly(
                            new ObjectGet(key, range(length - footer, footer)),
                            new ObjectGet(key, range(middle, 200 * 1024)),
                            new ObjectGet(key, range(forward, 10 * 1024)),
                            new ObjectGet(key, range(forward + 10 * 1024, 20 * 1024)),
                            new ObjectGet(key, range(16, 1024 * 1024)));
            // Hadoop's S3A open() reads the status again: Flink's FileSystem cannot hand it over.
            assertThat(S3.recordedHeads()).containsExactly(key, key);
        }
    }

    @Test
    void rawPackOnS3PlansWithOneGetAndReadsEachEntryWithOneMore() throws IOException {
        String key = "it/pack/10000000000000000000000000000000.blob";
        URI uri = S3.uri(key);
        byte[][] payloads = {randomBytes(100_000, 10), randomBytes(7, 11), randomBytes(300_000, 12)};
        RecoverableFsDataOutputStream out =
                FileSystem.get(uri).createRecoverableWriter().open(new Path(uri));
        RawPackWriter packWriter = RawPackWriter.create(out, new RawPackMetadata("set-1", 1, "flink-storage-it"));
        for (byte[] payload : payloads) {
            packWriter.append(payload);
        }
        packWriter.finish();
        out.closeForCommit().commit();
        S3.clearRecordedReads();

        try (ReadableObject object = storage.open(uri)) {
            RawPackFooter footer = RawPackReader.withAllFeatures().readFooter(object);
            assertThat(footer.entryCount()).isEqualTo(payloads.length);
            assertThat(S3.recordedGets()).hasSize(1);

            for (int index : new int[] {2, 0}) {
                int length = Math.toIntExact(footer.entryLength(index));
                byte[] payload = new byte[length];
                object.readFully(footer.entryOffset(index), payload, 0, length);
                RawPackReader.verifyPayload(footer, index, payload, 0, length);
                assertThat(payload).isEqualTo(payloads[index]);
            }
            assertThat(S3.recordedGets()).hasSize(3);
        }
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void externalDescriptorsOfEitherStoreReadBackThroughTheObjectLayer(Store store) throws IOException {
        URI uri = uri(store, "external/reference.bin");
        byte[] content = randomBytes(300_000, 13);
        writeAndCommit(uri, content);
        List<BlobRequest> requests = List.of(
                BlobRequest.of(BlobDescriptor.external(uri.toString(), 0, 0), ResolveContext.noBlobSet()),
                BlobRequest.of(BlobDescriptor.external(uri.toString(), 1_000, 50_000), ResolveContext.noBlobSet()));

        List<byte[]> blobs;
        try (ObjectLayer layer = ObjectLayer.builder(storage).build()) {
            blobs = layer.readAll(requests);
        }

        assertThat(blobs.get(0)).as("the whole object").isEqualTo(content);
        assertThat(blobs.get(1)).as("a range").isEqualTo(Arrays.copyOfRange(content, 1_000, 51_000));
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void scatteredReadFillsEachArrayAndSkipsTheHoles(Store store) throws IOException {
        URI uri = uri(store, "scattered/object.blob");
        byte[] content = randomBytes(1024 * 1024, 13);
        writeAndCommit(uri, content);
        byte[] first = new byte[100_000];
        byte[] second = new byte[300_008];

        try (ReadableObject object = storage.open(uri)) {
            object.readScattered(
                    1000,
                    List.of(
                            ScatterTarget.skip(24),
                            ScatterTarget.into(first, 0, 100_000),
                            ScatterTarget.skip(50_000),
                            ScatterTarget.into(second, 4, 300_000)));
        }

        assertThat(first).isEqualTo(Arrays.copyOfRange(content, 1024, 101_024));
        assertThat(Arrays.copyOfRange(second, 4, 300_004)).isEqualTo(Arrays.copyOfRange(content, 151_024, 451_024));
        assertThat(Arrays.copyOfRange(second, 0, 4)).containsOnly(0);
        assertThat(Arrays.copyOfRange(second, 300_004, second.length)).containsOnly(0);
    }

    @Test
    void scatteredReadOnS3IsOneGetOfItsWholeSpan() throws IOException {
        String key = "it/scattered/one-get.blob";
        URI uri = S3.uri(key);
        byte[] content = randomBytes(2 * 1024 * 1024, 14);
        writeAndCommit(uri, content);
        S3.clearRecordedReads();
        byte[] first = new byte[200_000];
        byte[] second = new byte[300_000];
        byte[] third = new byte[400_000];

        try (ReadableObject object = storage.open(uri)) {
            object.readScattered(
                    100_000,
                    List.of(
                            ScatterTarget.into(first, 0, 200_000),
                            ScatterTarget.skip(8 * 1024),
                            ScatterTarget.into(second, 0, 300_000),
                            ScatterTarget.skip(100),
                            ScatterTarget.into(third, 0, 400_000)));
        }

        assertThat(S3.recordedGets()).containsExactly(new ObjectGet(key, range(100_000, 900_000 + 8 * 1024 + 100)));
        assertThat(third).isEqualTo(Arrays.copyOfRange(content, 608_292, 1_008_292));
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void s3ObjectsGetTheObjectStoreTuningAndLocalFilesTheLocalOne(Store store) {
        ReadTuning expected = store == Store.S3 ? ReadTuning.OBJECT_STORE : ReadTuning.LOCAL;

        assertThat(storage.readTuning(uri(store, "tuning/any.blob"))).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void readsOfOneObjectFromSeveralThreadsAtOnceEachGetTheirOwnBytes(Store store) throws Exception {
        URI uri = uri(store, "concurrent/object.blob");
        byte[] content = randomBytes(4 * 1024 * 1024, 15);
        writeAndCommit(uri, content);
        int readers = 8;
        int length = content.length / readers;
        ExecutorService threads = Executors.newFixedThreadPool(readers);
        CountDownLatch start = new CountDownLatch(1);
        try (ReadableObject object = storage.open(uri)) {
            List<Future<byte[]>> reads = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                int position = i * length;
                reads.add(threads.submit(() -> {
                    start.await();
                    byte[] bytes = new byte[length];
                    object.readScattered(position, List.of(ScatterTarget.into(bytes, 0, length)));
                    return bytes;
                }));
            }
            start.countDown();
            for (int i = 0; i < readers; i++) {
                assertThat(reads.get(i).get())
                        .as("part %d", i)
                        .isEqualTo(Arrays.copyOfRange(content, i * length, (i + 1) * length));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void uncommittedMultipartUploadIsInProgressAndNoObject() throws IOException {
        String prefix = "it/uncommitted/";
        String key = prefix + "object.blob";
        URI uri = S3.uri(key);
        FileSystem fileSystem = FileSystem.get(uri);
        RecoverableWriter writer = fileSystem.createRecoverableWriter();

        RecoverableFsDataOutputStream out = writer.open(new Path(uri));
        out.write(randomBytes(MORE_THAN_ONE_PART, 7)); // uploaded as part 1
        out.write(randomBytes(1000, 8)); // below the part size: persist() stores it aside
        RecoverableWriter.ResumeRecoverable persisted = out.persist();

        assertThat(S3.inProgressMultipartUploads())
                .extracting(InProgressUpload::key)
                .contains(key);
        assertThat(S3.objectKeys(prefix))
                .doesNotContain(key)
                .singleElement(as(STRING))
                .startsWith("it/uncommitted/_object.blob_tmp_");
        assertThat(fileSystem.exists(new Path(uri))).isFalse();
        assertThatThrownBy(() -> storage.open(uri))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageStartingWith(uri + " does not exist");

        out.closeForCommit().commit();

        assertThat(S3.inProgressMultipartUploads())
                .extracting(InProgressUpload::key)
                .doesNotContain(key);
        assertThat(S3.objectKeys(prefix)).contains(key).anyMatch(name -> name.contains("_tmp_"));
        assertThat(S3.objectBytes(key)).hasSize(MORE_THAN_ONE_PART + 1000);

        writer.cleanupRecoverableState(persisted);

        assertThat(S3.objectKeys(prefix)).containsExactly(key);
    }

    private static URI uri(Store store, String relative) {
        return switch (store) {
            case S3 -> S3.uri("it/" + relative);
            case LOCAL -> localRoot.resolve(relative).toUri();
        };
    }

    private static void writeAndCommit(URI uri, byte[] content) throws IOException {
        RecoverableFsDataOutputStream out =
                FileSystem.get(uri).createRecoverableWriter().open(new Path(uri));
        out.write(content);
        out.closeForCommit().commit();
    }

    private static void assertRangeReadsBack(ReadableObject object, byte[] expected, int position, int length)
            throws IOException {
        byte[] buffer = new byte[length + 8];
        object.readFully(position, buffer, 4, length);
        assertThat(Arrays.copyOfRange(buffer, 4, 4 + length))
                .as("%d bytes at %d of %s", length, position, object.location())
                .isEqualTo(Arrays.copyOfRange(expected, position, position + length));
        assertThat(Arrays.copyOfRange(buffer, 0, 4)).containsOnly(0);
        assertThat(Arrays.copyOfRange(buffer, 4 + length, buffer.length)).containsOnly(0);
    }

    private static String range(long position, long length) {
        return position + "-" + (position + length - 1);
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] result = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, result, first.length, second.length);
        return result;
    }

    private static <T> byte[] serialize(SimpleVersionedSerializer<T> serializer, T value) throws IOException {
        return SimpleVersionedSerialization.writeVersionAndSerialize(serializer, value);
    }

    private static <T> T deserialize(SimpleVersionedSerializer<T> serializer, byte[] bytes) throws IOException {
        return SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
    }
}
