package io.blobingest.placement;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.CharacterCodingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BlobHeadersTest {

    @Test
    void parsesTheWholeUnsignedRange() {
        assertThat(BlobHeaders.parseUnsignedDecimal("0".getBytes(UTF_8))).isZero();
        assertThat(BlobHeaders.parseUnsignedDecimal("007".getBytes(UTF_8))).isEqualTo(7);
        assertThat(BlobHeaders.parseUnsignedDecimal("18446744073709551615".getBytes(UTF_8)))
                .isEqualTo(-1L);
    }

    @Test
    void writesUnsignedDecimals() {
        assertThat(new String(BlobHeaders.unsignedDecimal(-1L), UTF_8)).isEqualTo("18446744073709551615");
        assertThat(new String(BlobHeaders.unsignedDecimal(0x8000_0000_0000_0002L), UTF_8))
                .isEqualTo("9223372036854775810");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "+1", " 1", "1 ", "1.0", "0x10", "١"})
    void rejectsAnythingButAsciiDigits(String text) {
        assertThatThrownBy(() -> BlobHeaders.parseUnsignedDecimal(text.getBytes(UTF_8)))
                .isInstanceOf(NumberFormatException.class)
                .hasMessageStartingWith("expected a decimal u64, found ");
    }

    @Test
    void rejectsValuesAboveU64() {
        assertThatThrownBy(() -> BlobHeaders.parseUnsignedDecimal("18446744073709551616".getBytes(UTF_8)))
                .isInstanceOf(NumberFormatException.class)
                .hasMessage("expected a decimal u64, found '18446744073709551616' (above 2^64 - 1)");
    }

    @Test
    void rejectsMissingValue() {
        assertThatThrownBy(() -> BlobHeaders.parseUnsignedDecimal(null))
                .hasMessage("expected a decimal u64, found no value");
    }

    @Test
    void printableQuotesShortAsciiAndTruncatesTheRest() {
        assertThat(BlobHeaders.printable("abc".getBytes(UTF_8))).isEqualTo("'abc'");
        assertThat(BlobHeaders.printable(new byte[] {'a', 0, (byte) 0xFF})).isEqualTo("'a??'");
        assertThat(BlobHeaders.printable("x".repeat(40).getBytes(UTF_8)))
                .isEqualTo("'" + "x".repeat(32) + "' (40 bytes, first 32 shown)");
    }

    @Test
    void strictUtf8RefusesMalformedBytes() throws CharacterCodingException {
        assertThat(BlobHeaders.decodeUtf8("é".getBytes(UTF_8))).isEqualTo("é");
        assertThatThrownBy(() -> BlobHeaders.decodeUtf8(new byte[] {(byte) 0xC3}))
                .isInstanceOf(CharacterCodingException.class);
    }
}
