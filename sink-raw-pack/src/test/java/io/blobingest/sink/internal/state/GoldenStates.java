package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriterState;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.SidecarKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;

/**
 * The values behind the golden files in {@code src/test/resources/serializer/}. The files were
 * written once, with recoverables of Flink's local file system for files under {@link #BASE}, and
 * must never be regenerated: they prove that bytes written by each version still read. ({@code
 * blob-set-writer-state-v2.bin} is the VERSION_1 file's state, read and given {@link
 * #openPackStateWithHashes()}, written by VERSION_2; {@code blob-set-committable-v2.bin} is the
 * VERSION_1 file's committable with {@link #SHARING_INDEX_ENTRIES}, written by VERSION_2.)
 */
public final class GoldenStates {

    public static final String BASE = "file:/tmp/blobingest-golden/base";
    public static final String BLOB_SET = "0123456789abcdef0123456789abcdef-3-17";
    public static final long CREATED_AT = 1_700_000_000_000L;

    public static final long PACK_ID = 1;
    public static final long PACK_LENGTH = 1000;
    public static final long DEDICATED_ID = 2;
    public static final long DEDICATED_LENGTH = 5_242_880;
    public static final long OPEN_PACK_ID = 3;
    public static final long MANIFEST_LENGTH = 2048;
    public static final long SHARING_INDEX_ENTRIES = 12_345;

    private GoldenStates() {}

    public static String sidecarPath(long id) {
        return "/tmp/blobingest-golden/base/" + BLOB_SET + "/" + BlobSets.sidecarFileName(id);
    }

    public static String manifestPath() {
        return "/tmp/blobingest-golden/base/_descriptors/" + BLOB_SET + ".arrow";
    }

    public static List<DescriptorRow> rows() {
        return List.of(
                new DescriptorRow(
                        utf8("key-0"),
                        "blobs-in",
                        2,
                        40_000_000_000L,
                        null,
                        BlobDescriptor.inline(3),
                        null,
                        utf8("abc"),
                        0x89ab_cdefL,
                        List.of(new Attribute("trace-id", utf8("t-1")), new Attribute("tag", null))),
                new DescriptorRow(
                        null,
                        "blobs-in",
                        0,
                        7,
                        null,
                        BlobDescriptor.packed(RawPackFormat.entryReference(1), 20, OPEN_PACK_ID),
                        BLOB_SET,
                        null,
                        0xFFFF_FFFFL,
                        List.of()),
                new DescriptorRow(
                        new byte[0],
                        "blobs-in",
                        1,
                        8,
                        null,
                        BlobDescriptor.dedicated(DEDICATED_LENGTH, DEDICATED_ID),
                        BLOB_SET,
                        null,
                        0L,
                        List.of()),
                new DescriptorRow(
                        utf8("ü"),
                        "blobs-in",
                        1,
                        9,
                        null,
                        BlobDescriptor.external("s3://b/o", 10, 100),
                        null,
                        null,
                        null,
                        List.of(new Attribute("blob.source", utf8("x")))));
    }

    /** {@link #rows()} as the job sees them now: with their inputs' Kafka timestamps, but the last. */
    public static List<DescriptorRow> rowsWithTimestamps() {
        List<DescriptorRow> rows = rows();
        List<DescriptorRow> stamped = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            DescriptorRow row = rows.get(i);
            stamped.add(new DescriptorRow(
                    row.key(),
                    row.sourceTopic(),
                    row.sourcePartition(),
                    row.sourceOffset(),
                    i == rows.size() - 1 ? null : 1_765_000_000_000L + i,
                    row.blob(),
                    row.blobSet(),
                    row.inlineData(),
                    row.crc32c(),
                    row.attributes()));
        }
        return stamped;
    }

    public static RawPackWriterState openPackState() {
        return new RawPackWriterState(
                new RawPackMetadata(BLOB_SET, OPEN_PACK_ID, "golden-test"),
                46,
                new long[] {16, 26},
                new long[] {10, 20},
                new int[] {0x1234_5678, 0xFEDC_BA98});
    }

    /** {@link #openPackState()} as a writer recording entry hashes has it: entry 0's known, entry 1's not. */
    public static RawPackWriterState openPackStateWithHashes() {
        byte[] sha256 = new byte[32];
        for (int i = 0; i < sha256.length; i++) {
            sha256[i] = (byte) (0xA0 + i);
        }
        return openPackState().withEntrySha256(new byte[][] {sha256, null});
    }

    public static BlobSetCommittable committable(
            CommitRecoverable pack, CommitRecoverable dedicated, CommitRecoverable manifest) {
        return new BlobSetCommittable(
                BASE,
                BLOB_SET,
                rows().size(),
                sidecars(pack, dedicated),
                MANIFEST_LENGTH,
                manifest,
                SHARING_INDEX_ENTRIES);
    }

    private static List<PendingSidecar> sidecars(CommitRecoverable pack, CommitRecoverable dedicated) {
        return List.of(
                new PendingSidecar(PACK_ID, SidecarKind.RAW_PACK, PACK_LENGTH, pack),
                new PendingSidecar(DEDICATED_ID, SidecarKind.DEDICATED, DEDICATED_LENGTH, dedicated));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
