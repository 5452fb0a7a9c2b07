package io.blobingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * A deterministic population of test blobs: blob {@code i} always has the same key, bytes,
 * headers and placement, so that tests can regenerate what they expect from an offset alone.
 *
 * <p>Placement follows Lance's default thresholds: Inline up to 64 KiB, Packed up to 4 MiB,
 * Dedicated above; every 50th blob is an External reference. The edge sizes (0, 64 KiB, 64 KiB +
 * 1, 4 MiB, 5 MiB +) all occur among the first thousand indexes.
 */
public final class TestBlobs {

    public static final String TOPIC = "blobs-in";
    public static final int INLINE_MAX = 64 * 1024;
    public static final int PACKED_MAX = 4 * 1024 * 1024;
    public static final int DEDICATED_SIZE = 5 * 1024 * 1024;

    private TestBlobs() {}

    public static int partition(long i) {
        return (int) (i % 3);
    }

    public static Placement placement(long i) {
        if (i % 50 == 33) {
            return Placement.EXTERNAL;
        }
        int size = size(i);
        if (size <= INLINE_MAX) {
            return Placement.INLINE;
        }
        return size <= PACKED_MAX ? Placement.PACKED : Placement.DEDICATED;
    }

    /** The logical size of blob {@code i} (an External reference's size is that of its range). */
    public static int size(long i) {
        if (i % 500 == 299) {
            return DEDICATED_SIZE + (int) (i % 1000);
        }
        if (i % 1000 == 99) {
            return PACKED_MAX;
        }
        return switch ((int) (i % 50)) {
            case 7 -> 0;
            case 13 -> INLINE_MAX;
            case 21 -> INLINE_MAX + 1;
            case 33 -> 100;
            default -> i % 8 == 1 ? INLINE_MAX + 1 + (int) (i % 4096) : 1 + (int) (i * 37 % 3000);
        };
    }

    /** The bytes of blob {@code i}; null for an External reference. */
    public static byte[] bytes(long i) {
        if (placement(i) == Placement.EXTERNAL) {
            return null;
        }
        byte[] bytes = new byte[size(i)];
        new SplittableRandom(i).nextBytes(bytes);
        return bytes;
    }

    public static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    public static byte[] key(long i) {
        return i % 5 == 0 ? null : ("k" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** Passed-through headers: none, or three with a repeated name and a null value. */
    public static List<Attribute> attributes(long i) {
        if (i % 3 != 0) {
            return List.of();
        }
        return List.of(
                new Attribute("trace-id", ("t-" + i).getBytes(StandardCharsets.UTF_8)),
                new Attribute("tag", "a".getBytes(StandardCharsets.UTF_8)),
                new Attribute("tag", null));
    }

    public static BlobDescriptor external(long i) {
        return BlobDescriptor.external("s3://elsewhere/objects/" + i, 10, size(i));
    }

    public static PlacedBlob placed(long i) {
        Placement placement = placement(i);
        byte[] bytes = bytes(i);
        List<Attribute> headers = new ArrayList<>(attributes(i));
        if (placement == Placement.EXTERNAL) {
            headers.add(new Attribute("blob.uri", external(i).blobUri().getBytes(StandardCharsets.UTF_8)));
            headers.add(new Attribute("blob.mode", "reference".getBytes(StandardCharsets.UTF_8)));
        }
        BlobRecord record = new BlobRecord(key(i), bytes, headers, TOPIC, partition(i), i, null);
        return new PlacedBlob(
                record, placement, bytes, attributes(i), placement == Placement.EXTERNAL ? external(i) : null);
    }

    /**
     * Checks that {@code row} describes blob {@code row.sourceOffset()} and that its descriptor
     * resolves, through {@code stored}, to exactly that blob's bytes.
     */
    public static void assertDescribesItsBlob(DescriptorRow row, StoredBlobs stored) throws IOException {
        long i = row.sourceOffset();
        String where = "row " + row.source();
        assertThat(row.sourceTopic()).as(where).isEqualTo(TOPIC);
        assertThat(row.sourcePartition()).as(where).isEqualTo(partition(i));
        assertThat(row.key()).as(where + " key").isEqualTo(key(i));
        assertThat(row.blob().kind())
                .as(where + " kind")
                .isEqualTo(BlobKind.valueOf(placement(i).name()));
        assertThat(row.attributes()).as(where + " attributes").hasSameSizeAs(attributes(i));
        for (int a = 0; a < attributes(i).size(); a++) {
            assertThat(row.attributes().get(a).name())
                    .isEqualTo(attributes(i).get(a).name());
            assertThat(row.attributes().get(a).value())
                    .isEqualTo(attributes(i).get(a).value());
        }
        if (placement(i) == Placement.EXTERNAL) {
            assertThat(row.blob()).as(where).isEqualTo(external(i));
            assertThat(row.crc32c()).as(where + " crc32c").isNull();
            return;
        }
        byte[] expected = bytes(i);
        assertThat(row.blob().size()).as(where + " size").isEqualTo(expected.length);
        assertThat(row.crc32c()).as(where + " crc32c").isEqualTo(crc32c(expected));
        assertThat(stored.resolve(row)).as(where + " resolved bytes").isEqualTo(expected);
    }
}
