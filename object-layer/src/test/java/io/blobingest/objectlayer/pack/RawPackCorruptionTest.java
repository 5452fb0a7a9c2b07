package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static io.blobingest.objectlayer.pack.TestPacks.flipBit;
import static io.blobingest.objectlayer.pack.TestPacks.truncate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each kind of damage spec.md section 2 names, and the exact error it produces: exception type, file,
 * offset, expected versus found.
 */
class RawPackCorruptionTest {

    private static final String FILE = "/data/set-1/10000000000000000000000000000000.blob";

    // Layout of PACK: header 16 | payload 100 + 0 + 5 | table 3*24 | metadata | tail 32
    private static final byte[] FIRST = bytes(100, 9);
    private static final byte[] THIRD = ascii("third");
    private static final long FOOTER_START = 16 + 100 + 0 + 5;
    private static final long METADATA_START = FOOTER_START + 3 * 24;
    private static final byte[] PACK = write();
    private static final long TAIL_START = PACK.length - 32;

    private static final String SIZE_MISMATCH = "footer size mismatch at offset " + TAIL_START
            + ": expected footer_start + 24*entry_count + metadata_length == " + TAIL_START;
    private static final String NO_TAIL_MAGIC = "bad tail magic (a truncated or unfinished pack ends without it)";

    private final RawPackReader reader = RawPackReader.withAllFeatures();

    private static byte[] write() {
        try {
            return TestPacks.write(FIRST, new byte[0], THIRD);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    // ---- payload -------------------------------------------------------------------------------

    @Test
    void payloadBitFlipIsAPayloadCrcMismatchAtTheEntryOffset() throws IOException {
        byte[] damaged = flipBit(PACK, 16 + 100 + 2, 4);
        RecordingObject object = new RecordingObject(FILE, damaged);
        RawPackFooter footer = reader.readFooter(object);
        byte[] third = new byte[5];
        object.readFully(footer.entryOffset(2), third, 0, 5);
        String expected = "crc32c " + crc(THIRD);
        String found = "crc32c " + crc(flipBit(THIRD, 2, 4));

        assertFault(
                () -> RawPackReader.verifyPayload(footer, 2, third, 0, 5),
                CorruptPackException.class,
                116,
                "payload crc32c mismatch in entry 2 at offset 116: expected " + expected + ", found " + found);

        List<PackFault> faults = new RawPackVerifier(reader).verify(object);
        assertThat(faults)
                .containsExactly(new PackFault(
                        FILE,
                        116,
                        FILE + ": payload crc32c mismatch in entry 2 at offset 116: expected " + expected + ", found "
                                + found));
    }

    // ---- entry table and metadata under the footer crc -------------------------------------------

    @Test
    void entryTableBitFlipIsAFooterCrcMismatch() {
        byte[] damaged = flipBit(PACK, FOOTER_START + 24 + 8, 0); // entry 1's length: 0 -> 1

        assertFault(reading(damaged), CorruptPackException.class, FOOTER_START, footerCrcMismatch(PACK, damaged));
    }

    @Test
    void metadataBitFlipIsAFooterCrcMismatch() {
        byte[] damaged = flipBit(PACK, METADATA_START + 3, 1);

        assertFault(reading(damaged), CorruptPackException.class, FOOTER_START, footerCrcMismatch(PACK, damaged));
    }

    // ---- tail ----------------------------------------------------------------------------------

    @Test
    void tailFooterStartBitFlipIsAFooterSizeMismatch() {
        byte[] damaged = flipBit(PACK, TAIL_START, 3); // 121 -> 113
        long metadataLength = TAIL_START - METADATA_START;

        assertFault(
                reading(damaged),
                CorruptPackException.class,
                TAIL_START,
                SIZE_MISMATCH + ", found 113 + 24*3 + " + metadataLength + " == " + (TAIL_START - 8));
    }

    @Test
    void tailFooterStartHighBitIsAFooterSizeMismatchNotAnOverflow() {
        byte[] damaged = flipBit(PACK, TAIL_START + 7, 7); // 121 -> 2^63 + 121
        long metadataLength = TAIL_START - METADATA_START;

        assertFault(
                reading(damaged),
                CorruptPackException.class,
                TAIL_START,
                SIZE_MISMATCH + ", found 9223372036854775929 + 24*3 + " + metadataLength + " == "
                        + new BigInteger("9223372036854775929").add(BigInteger.valueOf(72 + metadataLength)));
    }

    @Test
    void tailEntryCountBitFlipIsAFooterSizeMismatch() {
        byte[] damaged = flipBit(PACK, TAIL_START + 8, 2); // 3 -> 7
        long metadataLength = TAIL_START - METADATA_START;

        assertFault(
                reading(damaged),
                CorruptPackException.class,
                TAIL_START,
                SIZE_MISMATCH + ", found " + FOOTER_START + " + 24*7 + " + metadataLength + " == " + (TAIL_START + 96));
    }

    @Test
    void tailEntryCountTopBitFlipIsAFooterSizeMismatch() {
        byte[] damaged = flipBit(PACK, TAIL_START + 11, 7); // 3 -> 2^31 + 3: read unsigned

        assertFault(reading(damaged), CorruptPackException.class, TAIL_START, null);
        assertThatThrownBy(reading(damaged)).hasMessageContaining("24*2147483651 + ");
    }

    @Test
    void tailMetadataLengthBitFlipIsAFooterSizeMismatch() {
        byte[] damaged = flipBit(PACK, TAIL_START + 12, 0);
        long metadataLength = TAIL_START - METADATA_START;

        assertFault(reading(damaged), CorruptPackException.class, TAIL_START, null);
        assertThatThrownBy(reading(damaged)).hasMessageContaining("24*3 + " + (metadataLength ^ 1));
    }

    @Test
    void tailCrcBitFlipIsAFooterCrcMismatch() {
        byte[] damaged = flipBit(PACK, TAIL_START + 16, 0);

        assertFault(reading(damaged), CorruptPackException.class, FOOTER_START, footerCrcMismatch(damaged, PACK));
    }

    @Test
    void tailVersionBitFlipIsAnUnknownVersion() {
        byte[] damaged = flipBit(PACK, TAIL_START + 20, 1);

        assertFault(
                reading(damaged),
                UnsupportedPackException.class,
                TAIL_START + 20,
                "unknown tail version at offset " + (TAIL_START + 20) + ": expected version 1, found version 3");
    }

    @Test
    void tailFlagsBitFlipIsUnknownFlags() {
        byte[] damaged = flipBit(PACK, TAIL_START + 23, 7);

        assertFault(
                reading(damaged),
                UnsupportedPackException.class,
                TAIL_START + 22,
                "unknown tail flags at offset " + (TAIL_START + 22) + ": expected flags 0, found flags 0x8000");
    }

    @Test
    void tailMagicBitFlipIsBadTailMagic() {
        byte[] damaged = flipBit(PACK, PACK.length - 1, 0);

        assertFault(
                reading(damaged),
                CorruptPackException.class,
                TAIL_START + 24,
                NO_TAIL_MAGIC + " at offset " + (TAIL_START + 24) + ": expected \"BLOBPACK\", found \"BLOBPACJ\"");
    }

    // ---- truncation ----------------------------------------------------------------------------

    @ParameterizedTest(name = "truncated to {0} bytes")
    @ValueSource(longs = {60, 120, FOOTER_START + 30, METADATA_START + 10})
    void truncationInsidePayloadOrFooterLeavesNoTailMagic(long length) {
        byte[] truncated = truncate(PACK, length);
        String found = quote(truncated, (int) length - 8);

        assertFault(
                reading(truncated),
                CorruptPackException.class,
                length - 8,
                NO_TAIL_MAGIC + " at offset " + (length - 8) + ": expected \"BLOBPACK\", found " + found);
    }

    @Test
    void truncationInsideTheTailLeavesNoTailMagic() {
        long length = PACK.length - 5;
        byte[] truncated = truncate(PACK, length);

        assertFault(
                reading(truncated),
                CorruptPackException.class,
                length - 8,
                NO_TAIL_MAGIC + " at offset " + (length - 8) + ": expected \"BLOBPACK\", found "
                        + quote(truncated, (int) length - 8));
    }

    @ParameterizedTest(name = "truncated to {0} bytes")
    @ValueSource(longs = {0, 8, 16, 47})
    void fileShorterThanHeaderAndTailIsTruncated(long length) {
        byte[] truncated = truncate(PACK, length);

        assertFault(
                reading(truncated),
                CorruptPackException.class,
                0,
                "truncated pack at offset 0: expected at least 48 bytes, found " + length + " bytes");
    }

    @Test
    void unfinishedPackWithOnlyHeaderAndPayloadIsRejected() {
        byte[] unfinished = truncate(PACK, FOOTER_START);

        assertThatThrownBy(reading(unfinished))
                .isExactlyInstanceOf(CorruptPackException.class)
                .hasMessageContaining("bad tail magic");
    }

    // ---- header --------------------------------------------------------------------------------

    @Test
    void wrongHeaderMagicIsBadHeaderMagic() {
        byte[] damaged = PACK.clone();
        damaged[7] = 'X';

        assertFault(
                reading(damaged),
                CorruptPackException.class,
                0,
                "bad header magic at offset 0: expected \"BLOBPACK\", found \"BLOBPACX\"");
    }

    @Test
    void wrongHeaderVersionIsAnUnknownVersion() {
        byte[] damaged = flipBit(PACK, 9, 0); // version 1 -> 257

        assertFault(
                reading(damaged),
                UnsupportedPackException.class,
                8,
                "unknown header version at offset 8: expected version 1, found version 257");
    }

    @Test
    void headerFlagsAreUnknownFlags() {
        byte[] damaged = flipBit(PACK, 10, 0);

        assertFault(
                reading(damaged),
                UnsupportedPackException.class,
                10,
                "unknown header flags at offset 10: expected flags 0, found flags 0x1");
    }

    @Test
    void headerReservedFieldMustBeZero() {
        byte[] damaged = flipBit(PACK, 15, 7);

        assertFault(
                reading(damaged),
                CorruptPackException.class,
                12,
                "non-zero reserved header field at offset 12: expected 0, found 0x80000000");
    }

    @Test
    void headerOfALargePackIsLeftToTheVerifierSoPlanningStaysOneRead() throws IOException {
        byte[] large = TestPacks.write(bytes(100_000, 10));
        large[0] = 'X';
        RecordingObject object = new RecordingObject(FILE, large);

        assertThat(reader.readFooter(object).entryCount()).isEqualTo(1);
        assertThat(object.reads()).hasSize(1);
        assertThat(new RawPackVerifier(reader).verify(object))
                .containsExactly(new PackFault(
                        FILE, 0, FILE + ": bad header magic at offset 0: expected \"BLOBPACK\", found \"XLOBPACK\""));
    }

    // ---- entries with a valid footer crc -------------------------------------------------------

    @Test
    void entryBeforeThePayloadRegionIsOutOfBounds() {
        HandBuiltPack builder = new HandBuiltPack().entry(ascii("0123456789")).row(8, 4, 0, 0);
        byte[] pack = builder.build();
        long row = builder.footerStart() + 24;

        assertFault(
                reading(pack),
                CorruptPackException.class,
                row,
                "entry 1 out of bounds at offset " + row
                        + ": expected a range inside the payload [16, 26), found offset 8 length 4");
    }

    @Test
    void entryRunningIntoTheFooterIsOutOfBounds() {
        HandBuiltPack builder = new HandBuiltPack().entry(ascii("0123456789")).row(20, 7, 0, 0);
        byte[] pack = builder.build();

        assertFault(
                reading(pack),
                CorruptPackException.class,
                builder.footerStart() + 24,
                "entry 1 out of bounds at offset " + (builder.footerStart() + 24)
                        + ": expected a range inside the payload [16, 26), found offset 20 length 7");
    }

    @Test
    void entryWithHugeUnsignedOffsetOrLengthIsOutOfBoundsWithoutOverflow() {
        byte[] hugeOffset = new HandBuiltPack()
                .payload(ascii("0123456789"))
                .row(0x8000_0000_0000_0010L, 1, 0, 0)
                .build();
        byte[] hugeLength = new HandBuiltPack()
                .payload(ascii("0123456789"))
                .row(16, -1L, 0, 0)
                .build();
        byte[] wrapping = new HandBuiltPack()
                .payload(ascii("0123456789"))
                .row(20, Long.MAX_VALUE, 0, 0)
                .build();

        assertFault(
                reading(hugeOffset),
                CorruptPackException.class,
                26,
                "entry 0 out of bounds at offset 26: expected a range inside the payload [16, 26), "
                        + "found offset 9223372036854775824 length 1");
        assertFault(
                reading(hugeLength),
                CorruptPackException.class,
                26,
                "entry 0 out of bounds at offset 26: expected a range inside the payload [16, 26), "
                        + "found offset 16 length 18446744073709551615");
        assertFault(reading(wrapping), CorruptPackException.class, 26, null);
    }

    @Test
    void entriesTouchingTheEdgesOfThePayloadRegionAreInBounds() throws IOException {
        byte[] pack = new HandBuiltPack()
                .entry(ascii("0123456789"))
                .row(16, 0, HandBuiltPack.crc32c(new byte[0]), 0)
                .row(26, 0, HandBuiltPack.crc32c(new byte[0]), 0)
                .row(25, 1, HandBuiltPack.crc32c(ascii("9")), 0)
                .build();

        RawPackFooter footer = reader.readFooter(new RecordingObject(FILE, pack));

        assertThat(footer.entryCount()).isEqualTo(4);
        assertThat(new RawPackVerifier(reader).verify(new RecordingObject(FILE, pack)))
                .isEmpty();
    }

    @Test
    void entryFlagsAreUnknownFlags() {
        HandBuiltPack builder =
                new HandBuiltPack().payload(ascii("abc")).row(16, 3, HandBuiltPack.crc32c(ascii("abc")), 1);
        byte[] pack = builder.build();

        assertFault(
                reading(pack),
                UnsupportedPackException.class,
                builder.footerStart() + 20,
                "unknown flags in entry 0 at offset " + (builder.footerStart() + 20)
                        + ": expected flags 0, found flags 0x1");
    }

    // ---- metadata ------------------------------------------------------------------------------

    @Test
    void unknownPackTypeIsRefused() {
        assertMetadataFault(
                "{\"pack_type\":\"zip\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"]}",
                UnsupportedPackException.class,
                "unknown pack_type",
                "expected \"raw\", found \"zip\"");
        assertMetadataFault(
                "{\"pack_version\":1,\"required_features\":[\"blob_object_pack\"]}",
                UnsupportedPackException.class,
                "unknown pack_type",
                "expected \"raw\", found null");
    }

    @Test
    void unknownPackVersionIsRefused() {
        assertMetadataFault(
                "{\"pack_type\":\"raw\",\"pack_version\":2,\"required_features\":[\"blob_object_pack\"]}",
                UnsupportedPackException.class,
                "unknown pack_version",
                "expected 1, found 2");
        assertMetadataFault(
                "{\"pack_type\":\"raw\",\"pack_version\":\"1\",\"required_features\":[\"blob_object_pack\"]}",
                UnsupportedPackException.class,
                "unknown pack_version",
                "expected 1, found \"1\"");
        assertMetadataFault(
                "{\"pack_type\":\"raw\",\"pack_version\":1.0,\"required_features\":[\"blob_object_pack\"]}",
                UnsupportedPackException.class,
                "unknown pack_version",
                "expected 1, found 1.0");
    }

    @Test
    void unknownRequiredFeatureIsRefused() {
        assertMetadataFault(
                "{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\",\"zstd\"]}",
                UnsupportedPackException.class,
                "unknown required feature",
                "expected one of the features this reader supports [blob_object_pack], found \"zstd\"");
    }

    @Test
    void requiredFeaturesMustBeAnArrayOfStrings() {
        assertMetadataFault(
                "{\"pack_type\":\"raw\",\"pack_version\":1}",
                CorruptPackException.class,
                "bad required_features",
                "expected a JSON array of strings, found null");
        assertMetadataFault(
                "{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[1]}",
                CorruptPackException.class,
                "bad required_features",
                "expected a JSON array of strings, found 1");
    }

    @Test
    void readerWithoutBlobObjectPackRefusesAV1Pack() {
        RawPackReader legacyReader = new RawPackReader(Set.of());

        assertFault(
                () -> legacyReader.readFooter(new RecordingObject(FILE, PACK)),
                UnsupportedPackException.class,
                METADATA_START,
                "unknown required feature at offset " + METADATA_START
                        + ": expected a feature this reader supports (it supports none), found \"blob_object_pack\"");
    }

    @Test
    void metadataEntryCountMustAgreeWithTheTail() {
        byte[] pack = new HandBuiltPack()
                .entry(ascii("abc"))
                .metadata("{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"],"
                        + "\"entry_count\":2}")
                .build();

        assertFault(
                reading(pack),
                CorruptPackException.class,
                16 + 3 + 24,
                "metadata entry_count disagrees with the tail at offset 43: expected 1, found 2");
    }

    @Test
    void metadataPayloadBytesMustAgreeWithTheEntryTable() {
        byte[] pack = new HandBuiltPack()
                .entry(ascii("abc"))
                .metadata("{\"pack_type\":\"raw\",\"pack_version\":1,\"required_features\":[\"blob_object_pack\"],"
                        + "\"entry_count\":1,\"payload_bytes\":4}")
                .build();

        assertFault(
                reading(pack),
                CorruptPackException.class,
                43,
                "metadata payload_bytes disagrees with the entry table at offset 43: "
                        + "expected 3 (the sum of entry lengths), found 4");
    }

    @ParameterizedTest(name = "entry_sha256 {0}")
    @ValueSource(
            strings = {
                "null => null",
                "\"abc\" => \"abc\"",
                "{} => {}",
                "[] => 0 items",
                "[null,null] => 2 items",
                "[\"2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824\"]"
                        + " => item 0 \"2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824\"",
                "[\"2cf24dba\"] => item 0 \"2cf24dba\"",
                "[\"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b982g\"]"
                        + " => item 0 \"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b982g\"",
                "[7] => item 0 7"
            })
    void malformedEntrySha256IsBadEntrySha256(String valueAndFound) {
        String[] parts = valueAndFound.split(" => ");
        assertMetadataFault(
                HandBuiltPack.MINIMAL_METADATA.replace("}", ",\"entry_sha256\":" + parts[0] + "}"),
                CorruptPackException.class,
                "bad entry_sha256",
                "expected a JSON array of 1 items (the entry_count), each 64 lowercase hex characters or null, found "
                        + parts[1]);
    }

    @Test
    void entrySha256MayBeAbsentOrHoldNullForAnEntry() throws IOException {
        String hex = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
        byte[] pack = new HandBuiltPack()
                .entry(ascii("abc"))
                .entry(ascii("hello"))
                .metadata(HandBuiltPack.MINIMAL_METADATA.replace("}", ",\"entry_sha256\":[null, \"" + hex + "\"]}"))
                .build();

        RawPackFooter footer = reader.readFooter(new RecordingObject(FILE, pack));

        assertThat(footer.entrySha256(0)).isEmpty();
        assertThat(footer.entrySha256(1)).contains(java.util.HexFormat.of().parseHex(hex));
        assertThat(reader.readFooter(new RecordingObject(
                                FILE, new HandBuiltPack().entry(ascii("abc")).build()))
                        .hasEntrySha256())
                .isFalse();
    }

    @ParameterizedTest(name = "metadata [{0}]")
    @ValueSource(
            strings = {
                "",
                "[]",
                "null",
                "{\"pack_type\":\"raw\"",
                "{} {}",
                "{\"pack_type\":\"raw\",\"pack_version\":1,\"pack_type\":\"raw\","
                        + "\"required_features\":[\"blob_object_pack\"]}"
            })
    void metadataThatIsNotOneJsonObjectIsBadMetadata(String json) {
        byte[] pack = new HandBuiltPack().metadata(json).build();

        assertFault(reading(pack), CorruptPackException.class, 16, null);
        assertThatThrownBy(reading(pack)).hasMessageStartingWith(FILE + ": bad metadata at offset 16: expected a");
    }

    @Test
    void metadataThatIsNotUtf8IsBadMetadata() {
        String text = HandBuiltPack.MINIMAL_METADATA.replace("}", ",\"note\":\"_\"}");
        byte[] json = text.getBytes(StandardCharsets.UTF_8);
        json[text.indexOf('_')] = (byte) 0xC3; // a UTF-8 lead byte with no continuation
        byte[] pack = new HandBuiltPack().metadata(json).build();

        assertThatThrownBy(reading(pack))
                .isExactlyInstanceOf(CorruptPackException.class)
                .hasMessageStartingWith(
                        FILE + ": bad metadata at offset 16: expected UTF-8 text, found bytes that are not UTF-8");
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void assertMetadataFault(
            String json, Class<? extends PackFormatException> type, String problem, String expectedAndFound) {
        HandBuiltPack builder = new HandBuiltPack().entry(ascii("abc")).metadata(json);
        byte[] pack = builder.build();
        long at = builder.metadataStart();

        assertFault(reading(pack), type, at, problem + " at offset " + at + ": " + expectedAndFound);
    }

    /** Reading the footer of {@code pack}, stored at {@link #FILE}. */
    private ThrowingCallable reading(byte[] pack) {
        return () -> reader.readFooter(new RecordingObject(FILE, pack));
    }

    /** Asserts the exact exception type, file and offset and, unless null, the whole message after the file. */
    private static void assertFault(
            ThrowingCallable call, Class<? extends PackFormatException> type, long offset, String message) {
        assertThatThrownBy(call).isExactlyInstanceOf(type).satisfies(e -> {
            PackFormatException fault = (PackFormatException) e;
            assertThat(fault.file()).isEqualTo(FILE);
            assertThat(fault.offset()).isEqualTo(offset);
            assertThat(fault.getMessage()).contains(" at offset " + offset + ": expected ");
            if (message != null) {
                assertThat(fault.getMessage()).isEqualTo(FILE + ": " + message);
            }
        });
    }

    /** The footer crc mismatch of a pack whose tail is {@code tailFrom}'s and footer {@code footerFrom}'s. */
    private static String footerCrcMismatch(byte[] tailFrom, byte[] footerFrom) {
        String stored = Integer.toUnsignedString(ByteBuffer.wrap(tailFrom, tailFrom.length - 16, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt());
        byte[] footer = Arrays.copyOfRange(footerFrom, (int) FOOTER_START, footerFrom.length - 32);
        return "footer crc32c mismatch at offset " + FOOTER_START + ": expected crc32c " + stored + ", found crc32c "
                + crc(footer);
    }

    private static String crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return Long.toString(crc.getValue());
    }

    /** The 8 bytes at {@code offset} as the reader quotes them. */
    private static String quote(byte[] bytes, int offset) {
        StringBuilder text = new StringBuilder("\"");
        for (int i = offset; i < offset + 8; i++) {
            int b = bytes[i] & 0xff;
            text.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return text.append('"').toString();
    }
}
