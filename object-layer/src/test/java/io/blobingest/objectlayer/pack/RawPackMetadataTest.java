package io.blobingest.objectlayer.pack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RawPackMetadataTest {

    @Test
    void jsonIsCanonicalKeysInOrderWithoutWhitespace() {
        RawPackMetadata metadata = new RawPackMetadata("set-1", 4294967295L, "blob-ingest/0.1.0 \"x\" \\y");

        String json = new String(metadata.toJson(3, 12345678901L), StandardCharsets.UTF_8);

        assertThat(json)
                .isEqualTo("{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"],"
                        + "\"blob_set\":\"set-1\",\"blob_id\":4294967295,\"entry_count\":3,"
                        + "\"payload_bytes\":12345678901,\"created_by\":\"blob-ingest/0.1.0 \\\"x\\\" \\\\y\"}");
    }

    @Test
    void jsonLengthIsTheLengthOfTheJsonAtEveryNumberOfDigitsOfBothCounts() {
        RawPackMetadata metadata = new RawPackMetadata("set-1", 4294967295L, "blob-ingest/0.1.0 \"x\" \\y");
        int lengthWithZeroCounts = metadata.toJson(0, 0).length;
        List<Integer> entryCounts = new ArrayList<>(List.of(-1, Integer.MAX_VALUE));
        List<Long> payloadBytes = new ArrayList<>(List.of(Long.MAX_VALUE, -1L, Long.MIN_VALUE));
        for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10; power *= 10) {
            for (long count : new long[] {power - 1, power, power * 9 + (power - 1)}) {
                payloadBytes.add(count);
                if (count <= Integer.MAX_VALUE) {
                    entryCounts.add((int) count);
                }
            }
        }

        for (int entryCount : entryCounts) {
            for (long payload : payloadBytes) {
                assertThat(RawPackMetadata.jsonLength(lengthWithZeroCounts, entryCount, payload))
                        .as("entry_count %s, payload_bytes %s", Integer.toUnsignedString(entryCount), payload)
                        .isEqualTo(metadata.toJson(entryCount, payload).length);
            }
        }
    }

    @Test
    void entryHashesComeLastAsLowercaseHexOrNullWithoutWhitespace() {
        RawPackMetadata metadata = new RawPackMetadata("set-1", 2, "w");
        byte[] digest = new byte[32];
        digest[0] = (byte) 0xAB;
        digest[31] = 0x01;
        EntrySha256s sha256s = new EntrySha256s(0);
        sha256s.add(digest);
        sha256s.add(null);
        sha256s.addCopyOf(0);

        String json = new String(metadata.toJson(3, 30, sha256s), StandardCharsets.UTF_8);

        String hex = "ab" + "00".repeat(30) + "01";
        assertThat(json)
                .isEqualTo("{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"],"
                        + "\"blob_set\":\"set-1\",\"blob_id\":2,\"entry_count\":3,\"payload_bytes\":30,"
                        + "\"created_by\":\"w\",\"entry_sha256\":[\"" + hex + "\",null,\"" + hex + "\"]}");
    }

    @Test
    void entryHashesFieldLengthIsPredictedWithoutWritingIt() {
        RawPackMetadata metadata = new RawPackMetadata("set-1", 2, "w");
        EntrySha256s sha256s = new EntrySha256s(0);
        int withoutField = metadata.toJson(0, 0).length;
        for (int i = 0; i < 5; i++) {
            assertThat(metadata.toJson(i, 0, sha256s).length - withoutField)
                    .as("%d entries", i)
                    .isEqualTo(sha256s.jsonFieldLength());
            long predicted = sha256s.jsonFieldLengthWithOneMore();
            sha256s.add(i == 2 ? null : new byte[32]);
            if (i != 2) {
                assertThat(sha256s.jsonFieldLength()).isEqualTo(predicted);
            }
        }
    }

    @Test
    void eachKnownEntryHashAdds67MetadataBytes() {
        EntrySha256s sha256s = new EntrySha256s(0);
        sha256s.add(new byte[32]);
        long one = sha256s.jsonFieldLength();
        sha256s.add(new byte[32]);

        assertThat(sha256s.jsonFieldLength() - one)
                .as("64 hex characters, 2 quotes and a comma")
                .isEqualTo(67);
    }

    @Test
    void blobSetMustMatchTheSpecPattern() {
        assertThatThrownBy(() -> new RawPackMetadata("Set_1", 1, "w"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blob_set must match [0-9a-z-]{1,64}, found \"Set_1\"");
        assertThatThrownBy(() -> new RawPackMetadata("", 1, "w")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RawPackMetadata("a".repeat(65), 1, "w"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new RawPackMetadata("a".repeat(64), 1, "w").blobSet()).hasSize(64);
    }

    @Test
    void blobIdMustBeANonZeroU32() {
        assertThatThrownBy(() -> new RawPackMetadata("s", 0, "w"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("found 0");
        assertThatThrownBy(() -> new RawPackMetadata("s", 1L << 32, "w"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("found 4294967296");
    }

    @Test
    void createdByMustBePrintableAscii() {
        assertThatThrownBy(() -> new RawPackMetadata("s", 1, "tab\there"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("printable ASCII");
        assertThatThrownBy(() -> new RawPackMetadata("s", 1, "caf\u00e9")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RawPackMetadata("s", 1, "")).isInstanceOf(IllegalArgumentException.class);
    }
}
