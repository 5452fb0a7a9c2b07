package io.blobingest.job.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacementPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class SplitManifestRowsTest {

    private static final List<Attribute> ATTRIBUTES =
            List.of(new Attribute("camera", "wrist".getBytes(UTF_8)), new Attribute("tag", null));

    @Test
    void anExternalRowBecomesTheInputRecordOfItsReferenceWithItsKeyAttributesAndSource() {
        DescriptorRow row = new DescriptorRow("k".getBytes(UTF_8), "robots", 3, 77,
                BlobDescriptor.external("s3://raw/clip.bin", 10, 20), null, null, null, ATTRIBUTES);

        BlobRecord record = SplitManifestRows.asInputRecord(row);

        assertThat(record.key()).isEqualTo("k".getBytes(UTF_8));
        assertThat(record.value()).isEmpty();
        assertThat(record.source()).isEqualTo("robots/3/77");
        assertThat(record.headers()).extracting(Attribute::name)
                .containsExactly("camera", "tag", "blob.uri", "blob.position", "blob.size");
        assertThat(new String(record.lastHeader("blob.uri"), UTF_8)).isEqualTo("s3://raw/clip.bin");
        assertThat(new String(record.lastHeader("blob.position"), UTF_8)).isEqualTo("10");
        assertThat(new String(record.lastHeader("blob.size"), UTF_8)).isEqualTo("20");
    }

    @Test
    void theClassifierFetchesTheReEnteredRecordInIngestModeKeepingTheAttributes() {
        DescriptorRow row = new DescriptorRow(null, "robots", 0, 1,
                BlobDescriptor.external("s3://raw/clip.bin", 0, 0), null, null, null, ATTRIBUTES);
        BlobRecordClassifier classifier =
                new BlobRecordClassifier(new PlacementPolicy(10, 100, 1000), List.of("s3://raw/"), 1000);

        Object classified = classifier.classify(SplitManifestRows.asInputRecord(row));

        assertThat(classified).isInstanceOfSatisfying(ExternalFetch.class, fetch -> {
            assertThat(fetch.location()).isEqualTo("s3://raw/clip.bin");
            assertThat(fetch.position()).isZero();
            assertThat(fetch.size()).as("the whole object").isZero();
            assertThat(fetch.attributes()).extracting(Attribute::name).containsExactly("camera", "tag");
        });
    }

    @Test
    void onlyAnExternalRowReEnters() {
        DescriptorRow inline = new DescriptorRow(null, "robots", 0, 1, BlobDescriptor.inline(1), null, new byte[1],
                0L, List.of());

        assertThatThrownBy(() -> SplitManifestRows.asInputRecord(inline))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INLINE from robots/0/1");
    }
}
