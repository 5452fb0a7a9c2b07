package io.blobingest.objectlayer.pack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RawPackFormatTest {

    @Test
    void entryReferenceSetsBit63AboveTheIndex() {
        assertThat(RawPackFormat.entryReference(0)).isEqualTo(0x8000_0000_0000_0000L);
        assertThat(RawPackFormat.entryReference(5)).isEqualTo(0x8000_0000_0000_0005L);
        assertThat(RawPackFormat.entryReference(Integer.MAX_VALUE)).isEqualTo(0x8000_0000_7FFF_FFFFL);
        assertThat(Long.toUnsignedString(RawPackFormat.entryReference(1))).isEqualTo("9223372036854775809");
    }

    @Test
    void entryReferenceRejectsNegativeIndex() {
        assertThatThrownBy(() -> RawPackFormat.entryReference(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("found -1");
    }

    @Test
    void entryIndexReadsBackTheFullU32Index() {
        assertThat(RawPackFormat.entryIndex(0x8000_0000_0000_0000L)).isZero();
        assertThat(RawPackFormat.entryIndex(0x8000_0000_0000_002AL)).isEqualTo(42);
        assertThat(RawPackFormat.entryIndex(0x8000_0000_FFFF_FFFFL)).isEqualTo(0xFFFF_FFFFL);
    }

    @Test
    void entryIndexRejectsAByteOffsetWithBit63Clear() {
        assertThat(RawPackFormat.isEntryReference(4096)).isFalse();
        assertThatThrownBy(() -> RawPackFormat.entryIndex(4096))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("position 4096 is not an entry reference: bit 63 is clear");
        assertThatThrownBy(() -> RawPackFormat.entryIndex(0x7FFF_FFFF_0000_0001L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bit 63 is clear");
    }

    @Test
    void entryIndexRejectsEachReservedBit() {
        for (int bit = 32; bit <= 62; bit++) {
            long reference = 0x8000_0000_0000_0001L | (1L << bit);
            assertThat(RawPackFormat.isEntryReference(reference)).isTrue();
            assertThatThrownBy(() -> RawPackFormat.entryIndex(reference))
                    .as("bit %d", bit)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(String.format("entry reference 0x%016x", reference))
                    .hasMessageContaining("reserved bits 62..32 set");
        }
    }

    @Test
    void layoutConstantsAddUp() {
        assertThat(RawPackFormat.HEADER_LENGTH).isEqualTo(RawPackFormat.MAGIC_LENGTH + 2 + 2 + 4);
        assertThat(RawPackFormat.ENTRY_LENGTH).isEqualTo(8 + 8 + 4 + 4);
        assertThat(RawPackFormat.TAIL_LENGTH).isEqualTo(8 + 4 + 4 + 4 + 2 + 2 + RawPackFormat.MAGIC_LENGTH);
        assertThat(RawPackFormat.TAIL_MAGIC_OFFSET + RawPackFormat.MAGIC_LENGTH).isEqualTo(RawPackFormat.TAIL_LENGTH);
        assertThat(RawPackFormat.MAGIC).containsExactly('B', 'L', 'O', 'B', 'P', 'A', 'C', 'K');
    }
}
