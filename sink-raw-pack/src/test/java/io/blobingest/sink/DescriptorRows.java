package io.blobingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.DescriptorRow;
import java.util.List;

/** Field-by-field comparison of descriptor rows (records compare their byte arrays by identity). */
public final class DescriptorRows {

    private DescriptorRows() {}

    public static void assertSameRow(DescriptorRow actual, DescriptorRow expected) {
        String where = "row " + expected.source();
        assertThat(actual.key()).as(where + " key").isEqualTo(expected.key());
        assertThat(actual.sourceTopic()).as(where + " topic").isEqualTo(expected.sourceTopic());
        assertThat(actual.sourcePartition()).as(where + " partition").isEqualTo(expected.sourcePartition());
        assertThat(actual.sourceOffset()).as(where + " offset").isEqualTo(expected.sourceOffset());
        assertThat(actual.sourceTimestamp()).as(where + " timestamp").isEqualTo(expected.sourceTimestamp());
        assertThat(actual.blob()).as(where + " descriptor").isEqualTo(expected.blob());
        assertThat(actual.blobSet()).as(where + " blob set").isEqualTo(expected.blobSet());
        assertThat(actual.inlineData()).as(where + " inline data").isEqualTo(expected.inlineData());
        assertThat(actual.crc32c()).as(where + " crc32c").isEqualTo(expected.crc32c());
        assertThat(actual.attributes()).as(where + " attribute count").hasSameSizeAs(expected.attributes());
        for (int i = 0; i < expected.attributes().size(); i++) {
            assertThat(actual.attributes().get(i).name())
                    .as(where + " attribute " + i)
                    .isEqualTo(expected.attributes().get(i).name());
            assertThat(actual.attributes().get(i).value())
                    .as(where + " attribute " + i)
                    .isEqualTo(expected.attributes().get(i).value());
        }
    }

    public static void assertSameRows(List<DescriptorRow> actual, List<DescriptorRow> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertSameRow(actual.get(i), expected.get(i));
        }
    }
}
