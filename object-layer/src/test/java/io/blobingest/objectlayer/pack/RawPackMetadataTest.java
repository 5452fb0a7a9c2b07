package io.blobingest.objectlayer.pack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
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
