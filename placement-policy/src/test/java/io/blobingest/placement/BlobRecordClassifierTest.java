package io.blobingest.placement;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BlobRecordClassifierTest {

    private static final String ALLOWED = "s3://bucket/allowed/";
    private static final long MAX = 500;
    private static final String MAX_U64 = "18446744073709551615";

    private final BlobRecordClassifier classifier =
            new BlobRecordClassifier(new PlacementPolicy(10, 100, 1000), List.of(ALLOWED, "file:/data"), MAX);

    static Stream<Arguments> refusedRecords() {
        byte[] value = bytes(1);
        return Stream.of(
                refused(
                        "null value without blob.uri",
                        input(null),
                        DeadLetterCode.NULL_VALUE,
                        "value is null and there is no blob.uri header"),
                refused(
                        "only blob.position",
                        input(null, "blob.uri", ALLOWED + "x", "blob.position", "1"),
                        DeadLetterCode.BAD_RANGE,
                        "only blob.position is given"),
                refused(
                        "only blob.size",
                        input(null, "blob.uri", ALLOWED + "x", "blob.size", "1"),
                        DeadLetterCode.BAD_RANGE,
                        "only blob.size is given"),
                refused(
                        "position not decimal",
                        range("abc", "1"),
                        DeadLetterCode.BAD_RANGE,
                        "blob.position: expected a decimal u64, found 'abc'"),
                refused(
                        "size negative",
                        range("0", "-1"),
                        DeadLetterCode.BAD_RANGE,
                        "blob.size: expected a decimal u64, found '-1'"),
                refused(
                        "size empty",
                        range("0", ""),
                        DeadLetterCode.BAD_RANGE,
                        "blob.size: expected a decimal u64, found an empty value"),
                refused(
                        "position without a value",
                        range(null, "1"),
                        DeadLetterCode.BAD_RANGE,
                        "blob.position: expected a decimal u64, found no value"),
                refused(
                        "position above u64",
                        range("18446744073709551616", "1"),
                        DeadLetterCode.BAD_RANGE,
                        "(above 2^64 - 1)"),
                refused(
                        "position + size overflows",
                        range(MAX_U64, "1"),
                        DeadLetterCode.BAD_RANGE,
                        "blob.position 18446744073709551615 + blob.size 1 overflows u64"),
                refused(
                        "range without blob.uri",
                        input(value, "blob.position", "0", "blob.size", "1"),
                        DeadLetterCode.BAD_RANGE,
                        "there is no blob.uri header"),
                refused(
                        "relative uri",
                        reference("bucket/allowed/x"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri is not absolute"),
                refused("empty uri", reference(""), DeadLetterCode.BAD_URI, "blob.uri is not absolute"),
                refused(
                        "opaque uri",
                        reference("mailto:someone@example.com"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri is opaque"),
                refused(
                        "uri with a space",
                        reference("s3://bucket/allowed/a b"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri is not a valid URI: Illegal character in path at index 21"),
                refused(
                        "uri with userinfo",
                        reference("s3://user:secret@bucket/allowed/x"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri has userinfo"),
                refused(
                        "uri with '..'",
                        reference(ALLOWED + "../private/x"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri has a '..' path segment"),
                refused(
                        "uri with encoded '..'",
                        reference(ALLOWED + "%2E%2E/private/x"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri has a '..' path segment"),
                refused(
                        "uri not UTF-8",
                        new BlobRecord(
                                null,
                                null,
                                List.of(
                                        new Attribute("blob.uri", new byte[] {'s', '3', ':', (byte) 0xFF}),
                                        header("blob.mode", "reference")),
                                "in",
                                0,
                                0,
                                null),
                        DeadLetterCode.BAD_URI,
                        "blob.uri is not valid UTF-8"),
                refused(
                        "uri without a value",
                        input(null, "blob.uri", null, "blob.mode", "reference"),
                        DeadLetterCode.BAD_URI,
                        "blob.uri header has no value"),
                refused(
                        "unknown mode",
                        input(null, "blob.uri", ALLOWED + "x", "blob.mode", "copy"),
                        DeadLetterCode.BAD_URI,
                        "blob.mode must be ingest or reference, found 'copy'"),
                refused(
                        "mode in upper case",
                        input(null, "blob.uri", ALLOWED + "x", "blob.mode", "REFERENCE"),
                        DeadLetterCode.BAD_URI,
                        "found 'REFERENCE'"),
                refused(
                        "reference without blob.uri",
                        input(value, "blob.mode", "reference"),
                        DeadLetterCode.BAD_URI,
                        "blob.mode=reference needs a blob.uri header"),
                refused(
                        "other bucket",
                        reference("s3://other/x"),
                        DeadLetterCode.URI_NOT_ALLOWED,
                        "blob.uri matches none of the 2 allowed prefixes"),
                refused(
                        "sibling of an allowed directory",
                        reference("s3://bucket/allowed-not/x"),
                        DeadLetterCode.URI_NOT_ALLOWED,
                        "matches none"),
                refused(
                        "prefix without slash is a path boundary",
                        reference("file:/database/x"),
                        DeadLetterCode.URI_NOT_ALLOWED,
                        "matches none"),
                refused(
                        "value above the maximum",
                        input(bytes(501)),
                        DeadLetterCode.TOO_LARGE,
                        "blob is 501 bytes, the maximum is 500 bytes"),
                refused(
                        "reference range above the maximum",
                        input(
                                null,
                                "blob.uri",
                                ALLOWED + "x",
                                "blob.mode",
                                "reference",
                                "blob.position",
                                "7",
                                "blob.size",
                                "501"),
                        DeadLetterCode.TOO_LARGE,
                        "blob is 501 bytes"),
                refused(
                        "reference range of 2^64 - 1 bytes",
                        input(
                                null,
                                "blob.uri",
                                ALLOWED + "x",
                                "blob.mode",
                                "reference",
                                "blob.position",
                                "0",
                                "blob.size",
                                MAX_U64),
                        DeadLetterCode.TOO_LARGE,
                        "blob is 18446744073709551615 bytes"),
                refused(
                        "ingest range above the maximum",
                        input(null, "blob.uri", ALLOWED + "x", "blob.position", "0", "blob.size", "501"),
                        DeadLetterCode.TOO_LARGE,
                        "blob is 501 bytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedRecords")
    void refusesWithTheSpecCode(String description, BlobRecord input, DeadLetterCode code, String detail) {
        ClassifiedRecord result = classifier.classify(input);

        assertThat(result).isInstanceOf(DeadLetter.class);
        DeadLetter deadLetter = (DeadLetter) result;
        assertThat(deadLetter.record()).isSameAs(input);
        assertThat(deadLetter.code()).isEqualTo(code);
        assertThat(deadLetter.detail()).contains(detail);
    }

    static Stream<Arguments> recordsWithTwoFaults() {
        return Stream.of(
                refused(
                        "null value, range without uri",
                        input(null, "blob.position", "x"),
                        DeadLetterCode.NULL_VALUE,
                        ""),
                refused("null value, unknown mode", input(null, "blob.mode", "copy"), DeadLetterCode.NULL_VALUE, ""),
                refused(
                        "bad range, relative uri",
                        input(null, "blob.uri", "x", "blob.size", "1"),
                        DeadLetterCode.BAD_RANGE,
                        ""),
                refused(
                        "bad range, unknown mode",
                        input(null, "blob.uri", ALLOWED, "blob.mode", "copy", "blob.position", "1", "blob.size", "z"),
                        DeadLetterCode.BAD_RANGE,
                        ""),
                refused(
                        "bad uri, not allowed anyway",
                        input(null, "blob.uri", "s3://u@other/x", "blob.mode", "reference"),
                        DeadLetterCode.BAD_URI,
                        ""),
                refused(
                        "unknown mode, not allowed uri",
                        input(null, "blob.uri", "s3://other/x", "blob.mode", "copy"),
                        DeadLetterCode.BAD_URI,
                        ""),
                refused(
                        "not allowed, too large",
                        input(
                                null,
                                "blob.uri",
                                "s3://other/x",
                                "blob.mode",
                                "reference",
                                "blob.position",
                                "0",
                                "blob.size",
                                "9999"),
                        DeadLetterCode.URI_NOT_ALLOWED,
                        ""),
                refused(
                        "too large, to be fetched",
                        input(null, "blob.uri", ALLOWED + "x", "blob.position", "0", "blob.size", "9999"),
                        DeadLetterCode.TOO_LARGE,
                        ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordsWithTwoFaults")
    void firstApplicableCodeWins(String description, BlobRecord input, DeadLetterCode code, String ignored) {
        assertThat(classifier.classify(input))
                .isInstanceOfSatisfying(
                        DeadLetter.class,
                        deadLetter -> assertThat(deadLetter.code()).isEqualTo(code));
    }

    static Stream<Arguments> ownedBlobs() {
        return Stream.of(
                Arguments.of(0, Placement.INLINE),
                Arguments.of(10, Placement.INLINE),
                Arguments.of(11, Placement.PACKED),
                Arguments.of(100, Placement.PACKED),
                Arguments.of(101, Placement.DEDICATED),
                Arguments.of((int) MAX, Placement.DEDICATED));
    }

    @ParameterizedTest(name = "{0} bytes -> {1}")
    @MethodSource("ownedBlobs")
    void placesAValueBySize(int size, Placement placement) {
        byte[] value = bytes(size);
        BlobRecord input = input(value, "blob.mode", "ingest");

        PlacedBlob placed = (PlacedBlob) classifier.classify(input);

        assertThat(placed.record()).isSameAs(input);
        assertThat(placed.placement()).isEqualTo(placement);
        assertThat(placed.bytes()).isSameAs(value);
        assertThat(placed.external()).isNull();
    }

    static Stream<Arguments> references() {
        return Stream.of(
                Arguments.of(reference(ALLOWED + "x"), BlobDescriptor.external(ALLOWED + "x", 0, 0)),
                Arguments.of(
                        input(bytes(3), "blob.uri", ALLOWED + "x", "blob.mode", "reference"),
                        BlobDescriptor.external(ALLOWED + "x", 0, 0)),
                Arguments.of(
                        input(
                                null,
                                "blob.uri",
                                ALLOWED + "x",
                                "blob.mode",
                                "reference",
                                "blob.position",
                                "5",
                                "blob.size",
                                "10"),
                        BlobDescriptor.external(ALLOWED + "x", 5, 10)),
                Arguments.of(
                        input(
                                null,
                                "blob.uri",
                                ALLOWED + "x",
                                "blob.mode",
                                "reference",
                                "blob.position",
                                "0",
                                "blob.size",
                                "0"),
                        BlobDescriptor.external(ALLOWED + "x", 0, 0)),
                Arguments.of(
                        input(
                                null,
                                "blob.uri",
                                ALLOWED + "x",
                                "blob.mode",
                                "reference",
                                "blob.position",
                                "18446744073709551115",
                                "blob.size",
                                "500"),
                        BlobDescriptor.external(ALLOWED + "x", -501L, 500)),
                Arguments.of(
                        reference("S3://bucket/allowed/./a/./b/."), BlobDescriptor.external(ALLOWED + "a/b/", 0, 0)),
                Arguments.of(reference("s3://bucket/./allowed/x"), BlobDescriptor.external(ALLOWED + "x", 0, 0)),
                Arguments.of(reference("s3://bucket/allowed//a"), BlobDescriptor.external(ALLOWED + "/a", 0, 0)),
                Arguments.of(reference("file:/data"), BlobDescriptor.external("file:///data", 0, 0)),
                Arguments.of(
                        reference("file:///data/x?version=3"),
                        BlobDescriptor.external("file:///data/x?version=3", 0, 0)));
    }

    @ParameterizedTest
    @MethodSource("references")
    void keepsAReferenceAsAnExternalDescriptorWithANormalizedUri(BlobRecord input, BlobDescriptor expected) {
        PlacedBlob placed = (PlacedBlob) classifier.classify(input);

        assertThat(placed.placement()).isEqualTo(Placement.EXTERNAL);
        assertThat(placed.external()).isEqualTo(expected);
        assertThat(placed.bytes()).isNull();
    }

    static Stream<Arguments> fetches() {
        return Stream.of(
                Arguments.of(input(null, "blob.uri", ALLOWED + "x"), ALLOWED + "x", 0L, 0L),
                Arguments.of(input(bytes(3), "blob.uri", ALLOWED + "x", "blob.mode", "ingest"), ALLOWED + "x", 0L, 0L),
                Arguments.of(
                        input(null, "blob.uri", ALLOWED + "x", "blob.position", "5", "blob.size", "10"),
                        ALLOWED + "x",
                        5L,
                        10L),
                Arguments.of(
                        input(null, "blob.uri", ALLOWED + "x", "blob.position", "7", "blob.size", "0"),
                        ALLOWED + "x",
                        7L,
                        0L),
                Arguments.of(input(null, "blob.uri", "S3://bucket/allowed/./a"), ALLOWED + "a", 0L, 0L),
                Arguments.of(input(null, "blob.uri", "file:/data/x"), "file:///data/x", 0L, 0L),
                Arguments.of(input(null, "blob.uri", ALLOWED + "x?X-Amz-Signature=secret#part"), ALLOWED + "x", 0L, 0L),
                Arguments.of(input(null, "blob.uri", ALLOWED + "x#part?not-a-query"), ALLOWED + "x", 0L, 0L));
    }

    @ParameterizedTest
    @MethodSource("fetches")
    void anIngestModeExternalBlobIsToBeFetchedFromItsLocationWithoutQuery(
            BlobRecord input, String location, long position, long size) {
        ClassifiedRecord classified = classifier.classify(input);

        assertThat(classified).isInstanceOfSatisfying(ExternalFetch.class, fetch -> {
            assertThat(fetch.record()).isSameAs(input);
            assertThat(fetch.location()).isEqualTo(location);
            assertThat(fetch.position()).isEqualTo(position);
            assertThat(fetch.size()).isEqualTo(size);
            assertThat(fetch.isWholeObject()).isEqualTo(position == 0 && size == 0);
        });
    }

    @Test
    void aWholeObjectToFetchHasNoKnownSizeToLimitYet() {
        BlobRecordClassifier tiny = new BlobRecordClassifier(new PlacementPolicy(0, 1, 1), List.of(ALLOWED), 0);

        assertThat(tiny.classify(input(null, "blob.uri", ALLOWED + "huge"))).isInstanceOf(ExternalFetch.class);
    }

    @Test
    void passesThroughHeadersOfABlobToFetch() {
        BlobRecord input = input(null, "camera", "front", "blob.uri", ALLOWED + "x", "blob.mode", "ingest");

        ExternalFetch fetch = (ExternalFetch) classifier.classify(input);

        assertThat(fetch.attributes()).extracting(Attribute::name).containsExactly("camera");
    }

    @Test
    void forcedIngestFetchesAReferenceModeBlobButStillChecksTheMode() {
        BlobRecordClassifier forcing =
                new BlobRecordClassifier(new PlacementPolicy(10, 100, 1000), List.of(ALLOWED), MAX, true, List.of());

        ClassifiedRecord classified = forcing.classify(input(
                null,
                "camera",
                "front",
                "blob.uri",
                ALLOWED + "x",
                "blob.mode",
                "reference",
                "blob.position",
                "2",
                "blob.size",
                "3"));

        assertThat(classified).isInstanceOfSatisfying(ExternalFetch.class, fetch -> {
            assertThat(fetch.location()).isEqualTo(ALLOWED + "x");
            assertThat(fetch.position()).isEqualTo(2);
            assertThat(fetch.size()).isEqualTo(3);
            assertThat(fetch.attributes()).extracting(Attribute::name).containsExactly("camera");
        });
        assertThat(forcing.classify(input(null, "blob.uri", ALLOWED + "x", "blob.mode", "copy")))
                .isInstanceOfSatisfying(
                        DeadLetter.class, d -> assertThat(d.code()).isEqualTo(DeadLetterCode.BAD_URI));
    }

    @Test
    void aWholeObjectReferenceHasNoKnownSizeToLimit() {
        BlobRecordClassifier tiny = new BlobRecordClassifier(new PlacementPolicy(0, 1, 1), List.of(ALLOWED), 0);

        assertThat(tiny.classify(reference(ALLOWED + "huge"))).isInstanceOf(PlacedBlob.class);
    }

    @Test
    void passesThroughEveryHeaderButTheReservedOnesInOrder() {
        BlobRecord input = input(
                bytes(1),
                "trace",
                "1",
                "blob.mode",
                "ingest",
                "empty",
                null,
                "blob.kind",
                "3",
                "blob.error",
                "bad-uri",
                "blob.custom",
                "kept",
                "trace",
                "2");

        PlacedBlob placed = (PlacedBlob) classifier.classify(input);

        assertThat(placed.attributes())
                .extracting(Attribute::name)
                .containsExactly("trace", "empty", "blob.custom", "trace");
        assertThat(placed.attributes())
                .extracting(a -> a.value() == null ? null : new String(a.value(), UTF_8))
                .containsExactly("1", null, "kept", "2");
    }

    @Test
    void passesThroughHeadersOfAReference() {
        BlobRecord input = input(
                null,
                "camera",
                "front",
                "blob.uri",
                ALLOWED + "x",
                "blob.mode",
                "reference",
                "blob.position",
                "1",
                "blob.size",
                "2");

        PlacedBlob placed = (PlacedBlob) classifier.classify(input);

        assertThat(placed.attributes()).extracting(Attribute::name).containsExactly("camera");
    }

    @Test
    void theLastOfRepeatedBlobHeadersCounts() {
        BlobRecord input = input(
                null, "blob.uri", "relative", "blob.uri", ALLOWED + "x", "blob.mode", "copy", "blob.mode", "reference");

        assertThat(classifier.classify(input)).isInstanceOf(PlacedBlob.class);
    }

    @Test
    void anEmptyAllowListRefusesEveryExternalBlob() {
        BlobRecordClassifier closed = new BlobRecordClassifier(PlacementPolicy.lanceDefaults(), List.of(), MAX);

        assertThat(closed.classify(reference("file:/data/x")))
                .isInstanceOfSatisfying(
                        DeadLetter.class,
                        deadLetter -> assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.URI_NOT_ALLOWED));
    }

    @Test
    void detailsNeverQuoteTheUri() {
        DeadLetter deadLetter = (DeadLetter) classifier.classify(reference("s3://user:secret@bucket/x?token=hidden"));

        assertThat(deadLetter.detail()).doesNotContain("secret").doesNotContain("hidden");
    }

    @Test
    void rejectsANegativeMaximum() {
        assertThatThrownBy(() -> new BlobRecordClassifier(PlacementPolicy.lanceDefaults(), List.of(), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maximum blob size must be >= 0 bytes, found -1");
    }

    private static Arguments refused(String description, BlobRecord input, DeadLetterCode code, String detail) {
        return Arguments.of(description, input, code, detail);
    }

    private static BlobRecord reference(String uri) {
        return input(null, "blob.uri", uri, "blob.mode", "reference");
    }

    private static BlobRecord range(String position, String size) {
        return input(
                null,
                "blob.uri",
                ALLOWED + "x",
                "blob.mode",
                "reference",
                "blob.position",
                position,
                "blob.size",
                size);
    }

    /** A record on in/0/0 with header name/value pairs; a null value is a header without a value. */
    private static BlobRecord input(byte[] value, String... headerPairs) {
        List<Attribute> headers = new ArrayList<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.add(header(headerPairs[i], headerPairs[i + 1]));
        }
        return new BlobRecord("key".getBytes(UTF_8), value, headers, "in", 0, 0, null);
    }

    private static Attribute header(String name, String value) {
        return new Attribute(name, value == null ? null : value.getBytes(UTF_8));
    }

    @Test
    void aMappedHeaderThatDoesNotParseAsItsTypeIsABadHeaderDeadLetterAndAMissingOneIsFine() {
        BlobRecordClassifier typed = new BlobRecordClassifier(
                new PlacementPolicy(10, 100, 1000),
                List.of(ALLOWED),
                MAX,
                false,
                HeaderColumn.parseAll("robot_id:string=robot.id, seq:int64=frame.seq"));

        ClassifiedRecord bad = typed.classify(input(bytes(3), "robot.id", "r7", "frame.seq", "12", "frame.seq", "x"));
        ClassifiedRecord missing = typed.classify(input(bytes(3), "camera", "front"));
        ClassifiedRecord good = typed.classify(input(bytes(3), "robot.id", "r7", "frame.seq", "12"));

        assertThat(bad).isInstanceOfSatisfying(DeadLetter.class, deadLetter -> {
            assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.BAD_HEADER);
            assertThat(deadLetter.code().wireName()).isEqualTo("bad-header");
            assertThat(deadLetter.detail())
                    .as("the last frame.seq counts")
                    .isEqualTo("header frame.seq (column seq, int64): expected a decimal int64, found 'x'");
        });
        assertThat(missing).isInstanceOf(PlacedBlob.class);
        assertThat(good).isInstanceOf(PlacedBlob.class);
    }

    @Test
    void tooLargeComesBeforeBadHeader() {
        BlobRecordClassifier typed = new BlobRecordClassifier(
                new PlacementPolicy(10, 100, 1000), List.of(ALLOWED), MAX, false, HeaderColumn.parseAll("n:int32=n"));

        ClassifiedRecord both = typed.classify(input(bytes((int) MAX + 1), "n", "many"));

        assertThat(both)
                .isInstanceOfSatisfying(
                        DeadLetter.class, d -> assertThat(d.code()).isEqualTo(DeadLetterCode.TOO_LARGE));
    }

    @Test
    void anAllowListThatReachesTheJobsOwnDirectoriesIsRefused() {
        Map<String, String> own = Map.of(
                "sink.raw-pack.base-path", "file:///data/base",
                "execution.checkpointing.dir", "s3://bucket/checkpoints");

        assertThatThrownBy(() -> classifier("file:/").requireOutside(own))
                .hasMessageContaining("allowed URI prefix file:/// is the root of the file system");
        assertThatThrownBy(() -> classifier("file:/data/").requireOutside(own))
                .hasMessageContaining("allowed URI prefix file:///data/ reaches sink.raw-pack.base-path");
        assertThatThrownBy(() -> classifier("file:/data/base").requireOutside(own))
                .hasMessageContaining("reaches sink.raw-pack.base-path (file:///data/base)");
        assertThatThrownBy(() -> classifier("s3://bucket").requireOutside(own))
                .hasMessageContaining("reaches execution.checkpointing.dir");
    }

    @Test
    void anAllowListBesideTheJobsOwnDirectoriesIsAccepted() {
        Map<String, String> own = Map.of(
                "sink.raw-pack.base-path", "file:///data/base",
                "execution.checkpointing.dir", "s3://bucket/checkpoints");

        classifier("file:/data/base-raw/").requireOutside(own);
        classifier("file:/data/base/_external/").requireOutside(own);
        classifier("file:/data/raw/").requireOutside(own);
        classifier("s3://bucket/checkpoints-old/").requireOutside(own);
        classifier("s3://other-bucket/").requireOutside(own);
    }

    private static BlobRecordClassifier classifier(String allowedPrefix) {
        return new BlobRecordClassifier(new PlacementPolicy(10, 100, 1000), List.of(allowedPrefix), MAX);
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 7);
        return bytes;
    }
}
