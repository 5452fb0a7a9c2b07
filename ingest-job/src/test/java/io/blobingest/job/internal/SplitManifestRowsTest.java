package io.blobingest.job.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.kafka.DescriptorRecordLimit;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.sink.manifest.ManifestRow;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class SplitManifestRowsTest {

    private static final List<Attribute> ATTRIBUTES =
            List.of(new Attribute("camera", "wrist".getBytes(UTF_8)), new Attribute("tag", null));

    @Test
    void anExternalRowBecomesTheInputRecordOfItsReferenceWithItsKeyAttributesAndSource() {
        DescriptorRow row = new DescriptorRow(
                "k".getBytes(UTF_8),
                "robots",
                3,
                77,
                null,
                BlobDescriptor.external("s3://raw/clip.bin", 10, 20),
                null,
                null,
                null,
                ATTRIBUTES);

        BlobRecord record = SplitManifestRows.asInputRecord(row);

        assertThat(record.key()).isEqualTo("k".getBytes(UTF_8));
        assertThat(record.value()).isEmpty();
        assertThat(record.source()).isEqualTo("robots/3/77");
        assertThat(record.headers())
                .extracting(Attribute::name)
                .containsExactly("camera", "tag", "blob.uri", "blob.position", "blob.size");
        assertThat(new String(record.lastHeader("blob.uri"), UTF_8)).isEqualTo("s3://raw/clip.bin");
        assertThat(new String(record.lastHeader("blob.position"), UTF_8)).isEqualTo("10");
        assertThat(new String(record.lastHeader("blob.size"), UTF_8)).isEqualTo("20");
    }

    @Test
    void theClassifierFetchesTheReEnteredRecordInIngestModeKeepingTheAttributes() {
        DescriptorRow row = new DescriptorRow(
                null,
                "robots",
                0,
                1,
                null,
                BlobDescriptor.external("s3://raw/clip.bin", 0, 0),
                null,
                null,
                null,
                ATTRIBUTES);
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
        DescriptorRow inline = new DescriptorRow(
                null, "robots", 0, 1, null, BlobDescriptor.inline(1), null, new byte[1], 0L, List.of());

        assertThatThrownBy(() -> SplitManifestRows.asInputRecord(inline))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INLINE from robots/0/1");
    }

    @Test
    void aRowTooLargeToPassThroughIsDeadLetteredAsItsDescriptorRecordAndTheOthersPassOn() throws Exception {
        byte[] bytes = new byte[2000];
        DescriptorRow large = new DescriptorRow(
                "k".getBytes(UTF_8),
                "robots",
                2,
                40,
                null,
                BlobDescriptor.inline(bytes.length),
                null,
                bytes,
                7L,
                ATTRIBUTES);
        DescriptorRow small = new DescriptorRow(
                null, "robots", 2, 41, null, BlobDescriptor.dedicated(1 << 20, 3), "set-1", null, 8L, ATTRIBUTES);
        SplitManifestRows split = new SplitManifestRows(new DescriptorRecordLimit(1000));

        try (OneInputStreamOperatorTestHarness<ManifestRow, BlobRecord> harness =
                ProcessFunctionTestHarnesses.forProcessFunction(split)) {
            harness.processElement(new ManifestRow("file:/m.arrow", 0, large), 0);
            harness.processElement(new ManifestRow("file:/m.arrow", 1, small), 0);

            assertThat(harness.getSideOutput(SplitManifestRows.PASSED_THROUGH))
                    .extracting(StreamRecord::getValue)
                    .singleElement()
                    .satisfies(passed -> {
                        assertThat(passed.row().source()).isEqualTo(small.source());
                        assertThat(passed.index())
                                .as("where it is, to be read again")
                                .isEqualTo(1);
                    });
            assertThat(harness.getSideOutput(ClassifyRecords.DEAD_LETTERS))
                    .singleElement()
                    .extracting(StreamRecord::getValue)
                    .satisfies(deadLetter -> {
                        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.DESCRIPTOR_TOO_LARGE);
                        assertThat(deadLetter.detail()).contains("robots/2/40", "1000 bytes");
                        BlobRecord record = deadLetter.record();
                        assertThat(record.source()).isEqualTo("robots/2/40");
                        assertThat(record.key()).isEqualTo(large.key());
                        assertThat(record.value()).isEqualTo(bytes);
                        assertThat(record.headers())
                                .extracting(Attribute::name)
                                .containsExactly(
                                        "blob.kind",
                                        "blob.position",
                                        "blob.size",
                                        "blob.id",
                                        "blob.uri",
                                        "blob.crc32c",
                                        "blob.features",
                                        "blob.source",
                                        "camera",
                                        "tag");
                    });
            assertThat(harness.extractOutputValues()).isEmpty();
        }
    }
}
