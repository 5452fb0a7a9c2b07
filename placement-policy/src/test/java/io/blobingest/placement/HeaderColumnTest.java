package io.blobingest.placement;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.HeaderColumn.Type;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeaderColumnTest {

    @Test
    void parsesTheOptionsItemsInOrder() {
        assertThat(HeaderColumn.parseAll(
                        " robot_id:string=robot.id, seq:int64=frame.seq,captured_at:timestamp=captured-at "))
                .containsExactly(
                        new HeaderColumn("robot_id", Type.STRING, "robot.id"),
                        new HeaderColumn("seq", Type.INT64, "frame.seq"),
                        new HeaderColumn("captured_at", Type.TIMESTAMP, "captured-at"));
        assertThat(HeaderColumn.parseAll("")).isEmpty();
        assertThat(HeaderColumn.parseAll("  ")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "robot_id=robot.id | expected name:type=header, found 'robot_id=robot.id'",
                "id:uuid=h | unknown type 'uuid' in 'id:uuid=h': expected one of [string, int32, int64, float64,"
                        + " bool, timestamp]",
                "Robot:string=h | column name must match [a-z_][a-z0-9_]{0,63}, found 'Robot'",
                "a:string= | column a names no header",
                "u:string=blob.uri | column u reads header blob.uri, which the pipeline interprets",
                "a:string=x, a:int32=y | column a is given twice"
            })
    void refusesAMalformedItemNamingIt(String spec, String message) {
        assertThatThrownBy(() -> HeaderColumn.parseAll(spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void parsesEachTypesValues() {
        assertThat(column(Type.STRING).parse(utf8("front ü"))).isEqualTo("front ü");
        assertThat(column(Type.INT32).parse(utf8("-7"))).isEqualTo(-7);
        assertThat(column(Type.INT64).parse(utf8("9007199254740993"))).isEqualTo(9_007_199_254_740_993L);
        assertThat(column(Type.FLOAT64).parse(utf8("1.5e3"))).isEqualTo(1500.0);
        assertThat(column(Type.FLOAT64).parse(utf8(".25"))).isEqualTo(0.25);
        assertThat(column(Type.BOOL).parse(utf8("false"))).isEqualTo(false);
        long at = Instant.parse("2026-12-07T10:15:30.250Z").toEpochMilli();
        assertThat(column(Type.TIMESTAMP).parse(utf8(Long.toString(at)))).isEqualTo(at);
        assertThat(column(Type.TIMESTAMP).parse(utf8("2026-12-07T10:15:30.250Z")))
                .isEqualTo(at);
        assertThat(column(Type.TIMESTAMP).parse(utf8("2026-12-07T11:15:30.250+01:00")))
                .isEqualTo(at);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "INT32 | 7.0 | expected a decimal int32, found '7.0'",
                "INT32 | 2147483648 | expected a decimal int32",
                "INT64 | ' 1' | expected a decimal int64, found ' 1'",
                "FLOAT64 | NaN | expected a decimal number, found 'NaN'",
                "FLOAT64 | 1.5f | expected a decimal number, found '1.5f'",
                "FLOAT64 | 0x10 | expected a decimal number",
                "BOOL | yes | expected true or false, found 'yes'",
                "TIMESTAMP | 2026-12-07 | expected epoch milliseconds or an ISO-8601 date-time with offset",
                "TIMESTAMP | 2026-12-07T10:15:30 | expected epoch milliseconds or an ISO-8601 date-time with offset",
                "TIMESTAMP | 99999999999999999999 | expected epoch milliseconds"
            })
    void refusesAValueThatIsNotItsType(Type type, String value, String message) {
        assertThatThrownBy(() -> column(type).parse(utf8(value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void refusesTextThatIsNotUtf8() {
        assertThatThrownBy(() -> column(Type.STRING).parse(new byte[] {(byte) 0xC3}))
                .hasMessageStartingWith("expected UTF-8 text, found ");
    }

    @Test
    void takesTheHeadersLastValue() {
        HeaderColumn seq = new HeaderColumn("seq", Type.INT64, "frame.seq");
        List<Attribute> headers = List.of(
                new Attribute("frame.seq", utf8("1")),
                new Attribute("camera", utf8("front")),
                new Attribute("frame.seq", utf8("2")));

        assertThat(seq.lastValue(headers)).isEqualTo(utf8("2"));
        assertThat(seq.lastValue(List.of(new Attribute("camera", utf8("front")))))
                .isNull();
    }

    private static HeaderColumn column(Type type) {
        return new HeaderColumn("c", type, "h");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(UTF_8);
    }
}
