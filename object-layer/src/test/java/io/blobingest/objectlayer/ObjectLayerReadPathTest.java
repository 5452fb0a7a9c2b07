package io.blobingest.objectlayer;

import static io.blobingest.objectlayer.BlobFixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.pack.CorruptPackException;
import io.blobingest.objectlayer.pack.RawPackFormat;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** resolve, plan, read and decode, one kind at a time, and the errors of each step. */
class ObjectLayerReadPathTest extends ObjectLayerTestBase {

    private static final String SET = "cam-7";

    private byte[] readOne(BlobDescriptor descriptor, ResolveContext context) throws IOException {
        BlobReadPlan plan = layer.plan(layer.resolve(descriptor, context));
        return layer.decode(plan, layer.read(plan));
    }

    @Test
    void objectBackedPackedResolvesToAnEntryOfItsSidecar() throws IOException {
        BlobDescriptor descriptor = BlobDescriptor.packed(RawPackFormat.entryReference(4), 10, 3);

        BlobObjectRef ref = layer.resolve(descriptor, fixtures.objectPackSet(SET));

        assertThat(ref).isEqualTo(new BlobObjectRef.PackEntry(fixtures.sidecar(SET, 3), descriptor.position(), 10));
    }

    @Test
    void packEntryPlanTakesTheEntrysRangeFromTheFooter() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, List.of(new byte[100], new byte[30], new byte[7]));

        BlobReadPlan plan = layer.plan(layer.resolve(entries.get(2), fixtures.objectPackSet(SET)));

        assertThat(plan.range()).isEqualTo(new PhysicalRange(fixtures.sidecar(SET, 1), 16 + 100 + 30, 7));
        assertThat(plan.logicalSize()).isEqualTo(7);
    }

    @ParameterizedTest(name = "footer records entry hashes: {0}")
    @ValueSource(booleans = {false, true})
    void packEntriesReadBackExactly(boolean recordEntrySha256) throws IOException {
        List<byte[]> payloads = List.of(randomBytes(1000, 1), new byte[0], randomBytes(70_000, 2), randomBytes(1, 3));
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads, recordEntrySha256);

        for (int i = 0; i < payloads.size(); i++) {
            assertThat(readOne(entries.get(i), fixtures.objectPackSet(SET)))
                    .as("entry %d", i)
                    .isEqualTo(payloads.get(i));
        }
    }

    @Test
    void decodeRejectsPayloadCrcMismatchNamingFileAndOffset() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, List.of(randomBytes(50, 1), randomBytes(50, 2)));
        Path pack = fixtures.sidecarPath(SET, 1);
        flipByte(pack, 16 + 50 + 10);
        BlobReadPlan plan = layer.plan(layer.resolve(entries.get(1), fixtures.objectPackSet(SET)));
        byte[] physical = layer.read(plan);

        assertThatThrownBy(() -> layer.decode(plan, physical))
                .isInstanceOf(CorruptPackException.class)
                .hasMessageStartingWith(pack + ": payload crc32c mismatch in entry 1 at offset 66: expected crc32c ");
        assertThat(readOne(entries.get(0), fixtures.objectPackSet(SET))).isEqualTo(randomBytes(50, 1));
    }

    @Test
    void decodeRejectsBytesOfAnotherLengthThanTheRange() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, List.of(new byte[10]));
        BlobReadPlan plan = layer.plan(layer.resolve(entries.get(0), fixtures.objectPackSet(SET)));

        assertThatThrownBy(() -> layer.decode(plan, new byte[9]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the plan reads 10 bytes at offset 16, given 9");
    }

    @Test
    void planRejectsASizeThatDiffersFromTheEntrysLength() throws IOException {
        fixtures.writePack(SET, 1, List.of(new byte[10], new byte[20]));
        BlobDescriptor wrongSize = BlobDescriptor.packed(RawPackFormat.entryReference(1), 21, 1);
        BlobObjectRef ref = layer.resolve(wrongSize, fixtures.objectPackSet(SET));

        assertThatThrownBy(() -> layer.plan(ref))
                .isInstanceOf(DescriptorMismatchException.class)
                .hasMessage(fixtures.sidecarPath(SET, 1) + ": entry 1 length differs from the descriptor's size"
                        + " at offset 70: expected length 21, found length 20");
    }

    @Test
    void planRejectsAnEntryReferencePastTheLastEntry() throws IOException {
        fixtures.writePack(SET, 1, List.of(new byte[10], new byte[20]));
        BlobObjectRef ref = layer.resolve(
                BlobDescriptor.packed(RawPackFormat.entryReference(2), 10, 1), fixtures.objectPackSet(SET));

        assertThatThrownBy(() -> layer.plan(ref))
                .isInstanceOf(DescriptorMismatchException.class)
                .hasMessageContaining("entry reference names no entry")
                .hasMessageContaining("expected an entry index below 2, found entry index 2");
    }

    @Test
    void planRejectsAnEntryReferenceWithReservedBitsSet() throws IOException {
        fixtures.writePack(SET, 1, List.of(new byte[10]));
        long reserved = RawPackFormat.entryReference(0) | (1L << 40);
        BlobObjectRef ref = layer.resolve(BlobDescriptor.packed(reserved, 10, 1), fixtures.objectPackSet(SET));

        assertThatThrownBy(() -> layer.plan(ref))
                .isInstanceOf(DescriptorMismatchException.class)
                .hasMessageContaining("bad entry reference")
                .hasMessageContaining("found 0x8000010000000000");
    }

    @Test
    void planOfAMissingSidecarNamesIt() {
        BlobDescriptor descriptor = BlobDescriptor.packed(RawPackFormat.entryReference(0), 10, 5);

        assertThatThrownBy(() -> layer.plan(layer.resolve(descriptor, fixtures.objectPackSet(SET))))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(fixtures.sidecarPath(SET, 5).toString());
    }

    @Test
    void dedicatedReadsTheWholeSidecar() throws IOException {
        byte[] bytes = randomBytes(100_000, 9);
        BlobDescriptor descriptor = fixtures.writeDedicated(SET, 2, bytes);

        BlobObjectRef ref = layer.resolve(descriptor, fixtures.objectPackSet(SET));
        BlobReadPlan plan = layer.plan(ref);

        assertThat(ref).isEqualTo(new BlobObjectRef.DedicatedFile(fixtures.sidecar(SET, 2), 100_000));
        assertThat(plan.range()).isEqualTo(new PhysicalRange(fixtures.sidecar(SET, 2), 0, 100_000));
        assertThat(layer.decode(plan, layer.read(plan))).isEqualTo(bytes);
    }

    @Test
    void dedicatedPlanRejectsALengthThatDiffersFromTheSize() throws IOException {
        fixtures.writeDedicated(SET, 2, new byte[99]);
        BlobObjectRef ref = layer.resolve(BlobDescriptor.dedicated(100, 2), fixtures.objectPackSet(SET));

        assertThatThrownBy(() -> layer.plan(ref))
                .isInstanceOf(DescriptorMismatchException.class)
                .hasMessage(
                        fixtures.sidecarPath(SET, 2) + ": Dedicated sidecar length differs from the descriptor's size"
                                + " at offset 0: expected length 100, found length 99");
    }

    @Test
    void externalWithoutRangeReadsTheWholeObject() throws IOException {
        Path file = writeExternal(randomBytes(5000, 4));
        BlobDescriptor descriptor = BlobDescriptor.external(file.toUri().toString(), 0, 0);

        BlobReadPlan plan = layer.plan(layer.resolve(descriptor, ResolveContext.noBlobSet()));

        assertThat(plan.range()).isEqualTo(new PhysicalRange(file.toUri(), 0, 5000));
        assertThat(layer.decode(plan, layer.read(plan))).isEqualTo(randomBytes(5000, 4));
    }

    @Test
    void externalWithARangeReadsThatRange() throws IOException {
        Path file = writeExternal(randomBytes(5000, 4));
        BlobDescriptor descriptor = BlobDescriptor.external(file.toUri().toString(), 1000, 24);

        assertThat(readOne(descriptor, ResolveContext.noBlobSet()))
                .isEqualTo(Arrays.copyOfRange(randomBytes(5000, 4), 1000, 1024));
    }

    @Test
    void externalRangeBeyondTheEndIsRefused() throws IOException {
        Path file = writeExternal(new byte[100]);
        BlobDescriptor descriptor = BlobDescriptor.external(file.toUri().toString(), 90, 11);
        BlobObjectRef ref = layer.resolve(descriptor, ResolveContext.noBlobSet());

        assertThatThrownBy(() -> layer.plan(ref))
                .isInstanceOf(DescriptorMismatchException.class)
                .hasMessage(file + ": External range lies beyond the end of the file at offset 90:"
                        + " expected offset + size <= 100 (the file's length), found offset 90 + size 11");
    }

    @Test
    void externalUrisOfAnySchemeResolveAndTheStorageRefusesWhatItCannotOpen() throws IOException {
        BlobDescriptor descriptor = BlobDescriptor.external("s3://bucket/key", 0, 0);

        assertThat(layer.resolve(descriptor, ResolveContext.noBlobSet()))
                .isEqualTo(new BlobObjectRef.ExternalObject(URI.create("s3://bucket/key"), 0, 0));
        assertThatThrownBy(() -> layer.readAll(List.of(BlobRequest.of(descriptor, ResolveContext.noBlobSet()))))
                .isInstanceOf(IOException.class)
                .hasMessage("local storage reads file: URIs only, found s3://bucket/key");
    }

    @Test
    void externalUriWithAQueryIsRefusedWithoutEchoingIt() {
        BlobDescriptor descriptor = BlobDescriptor.external("https://bucket.example/key?X-Amz-Signature=secret", 0, 0);

        assertThatThrownBy(() -> layer.resolve(descriptor, ResolveContext.noBlobSet()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("External https: blob_uri with a query or fragment cannot be read by this reader");
    }

    @Test
    void externalFileUriWithUserinfoIsRefusedWithoutEchoingIt() {
        BlobDescriptor descriptor = BlobDescriptor.external("file://user:secret@host/x", 0, 0);

        assertThatThrownBy(() -> layer.resolve(descriptor, ResolveContext.noBlobSet()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("secret");
    }

    @Test
    void inlineDescriptorsNameNoObject() {
        assertThatThrownBy(() -> layer.resolve(BlobDescriptor.inline(3), ResolveContext.noBlobSet()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inline_data");
    }

    @Test
    void sidecarDescriptorsNeedABlobSet() {
        BlobDescriptor descriptor = BlobDescriptor.dedicated(10, 1);

        assertThatThrownBy(() -> layer.resolve(descriptor, ResolveContext.noBlobSet()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a DEDICATED descriptor names sidecar 1 of a blob set, but the context has no blob set");
    }

    @Test
    void readSplitsARangeLongerThanTheMaxMergedRange() throws IOException {
        byte[] bytes = randomBytes(10_000, 5);
        BlobDescriptor descriptor = fixtures.writeDedicated(SET, 1, bytes);
        try (ObjectLayer small =
                ObjectLayer.builder(storage).holeLimit(0).maxMergedRange(4096).build()) {
            BlobReadPlan plan = small.plan(small.resolve(descriptor, fixtures.objectPackSet(SET)));
            storage.clear();

            byte[] physical = small.read(plan);

            assertThat(physical).isEqualTo(bytes);
            assertThat(storage.reads())
                    .extracting(RecordingBlobStorage.Access::length)
                    .containsExactly(4096L, 4096L, 1808L);
        }
    }

    private Path writeExternal(byte[] bytes) throws IOException {
        Path file = root.resolve("external").resolve("object.bin");
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes);
    }

    static void flipByte(Path file, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0xFF);
        }
    }
}
