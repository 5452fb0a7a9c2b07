package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeyValueLineTest {

    @Test
    void formatsPairsInOrderAndParsesThemBack() {
        KeyValueLine line = KeyValueLine.builder()
                .put("contender", "consume")
                .put("records", 964)
                .put("base", "file:///tmp/x/")
                .build();

        assertThat(line.toString()).isEqualTo("contender=consume records=964 base=file:///tmp/x/");
        KeyValueLine parsed = KeyValueLine.parse(line + "\n");
        assertThat(parsed.asMap()).containsExactlyEntriesOf(line.asMap());
        assertThat(parsed.getLong("records")).isEqualTo(964);
    }

    @Test
    void valueMayHoldAnEqualsSign() {
        assertThat(KeyValueLine.parse("option=a=b").get("option")).isEqualTo("a=b");
    }

    @Test
    void refusesWhatWouldNotParseBack() {
        assertThatThrownBy(() -> KeyValueLine.builder().put("path", "/tmp/with space"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("with space");
        assertThatThrownBy(() -> KeyValueLine.builder().put("a", 1).put("a", 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key a put twice");
    }

    @Test
    void namesWhatIsWrongWithALine() {
        assertThatThrownBy(() -> KeyValueLine.parse("records=1 oops"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not key=value: 'oops'");
        assertThatThrownBy(() -> KeyValueLine.parse("records=1").get("bytes"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no bytes=");
        assertThatThrownBy(() -> KeyValueLine.parse("records=many").getLong("records"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("records is not a whole number: 'many'");
    }
}
