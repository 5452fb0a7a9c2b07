package io.blobingest.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobKind;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ClassifiedRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** {@link DemoWorkload}: deterministic, complete, and classified by the job as the demo expects. */
class DemoWorkloadTest {

    private static final Path EXTERNAL = Path.of("/data/demo/_external").toAbsolutePath();

    @Test
    void sameSeedRegeneratesTheSameRecords() {
        DemoWorkload first = new DemoWorkload(7, 200, EXTERNAL);
        DemoWorkload again = new DemoWorkload(7, 200, EXTERNAL);

        for (int i = 0; i < 200; i++) {
            assertThat(again.kind(i)).isEqualTo(first.kind(i));
            assertThat(again.key(i)).isEqualTo(first.key(i));
            if (first.kind(i) != DemoRecordKind.BAD) {
                assertThat(again.expectedBytes(i)).as("record %d", i).isEqualTo(first.expectedBytes(i));
            }
        }
    }

    @Test
    void anotherSeedGivesOtherBytes() {
        DemoWorkload first = new DemoWorkload(7, 200, EXTERNAL);
        DemoWorkload other = new DemoWorkload(8, 200, EXTERNAL);
        int frame = 2;

        assertThat(first.kind(frame)).isEqualTo(DemoRecordKind.CAMERA_FRAME);
        assertThat(other.expectedBytes(frame)).isNotEqualTo(first.expectedBytes(frame));
    }

    @Test
    void theSmallestWorkloadHoldsEveryKindAndEveryFault() {
        DemoWorkload workload = new DemoWorkload(1, DemoWorkload.MIN_COUNT, EXTERNAL);
        Set<BadRecord> faults = EnumSet.noneOf(BadRecord.class);
        for (int i = 0; i < workload.count(); i++) {
            if (workload.fault(i) != null) {
                faults.add(workload.fault(i));
            }
        }

        assertThat(workload.countsByKind().keySet()).containsExactlyInAnyOrder(DemoRecordKind.values());
        assertThat(faults).containsExactlyInAnyOrder(BadRecord.values());
    }

    @Test
    void blobSizesStayInTheRangesOfTheirKind() {
        DemoWorkload workload = new DemoWorkload(3, 2000, EXTERNAL);
        for (int i = 0; i < workload.count(); i++) {
            long size = workload.size(i);
            switch (workload.kind(i)) {
                case TELEMETRY -> assertThat(size).as("record %d", i).isBetween(100L, 500L);
                case CAMERA_FRAME, RESENT_FRAME ->
                    assertThat(size).as("record %d", i).isBetween(30L * 1024, 600L * 1024);
                case CALIBRATION_IMAGE -> assertThat(size).as("record %d", i).isBetween(200L * 1024, 256L * 1024);
                case VIDEO_SEGMENT -> assertThat(size).as("record %d", i).isBetween(5L << 20, 40L << 20);
                case EXTERNAL_REFERENCE -> assertThat(size).as("record %d", i).isBetween(4L * 1024, 256L * 1024);
                case EXTERNAL_INGEST -> assertThat(size).as("record %d", i).isBetween(1024L, 200L * 1024);
                case BAD -> assertThat(size).isZero();
            }
        }
    }

    @Test
    void everyRobotSendsTheSameCalibrationImageUnderItsOwnKeyToBothPartitions() {
        DemoWorkload workload = new DemoWorkload(3, 2000, EXTERNAL);
        List<Integer> images = indexesOf(workload, DemoRecordKind.CALIBRATION_IMAGE);
        byte[] image = workload.expectedBytes(images.get(0));
        Set<String> robots = new HashSet<>();
        Set<Integer> partitions = new HashSet<>();
        Set<String> keys = new HashSet<>();

        for (int index : images) {
            ProducerRecord<byte[], byte[]> record = workload.producerRecord("blobs", 2, index);
            assertThat(record.value()).as("record %d", index).isEqualTo(image);
            robots.add(header(record, "robot"));
            partitions.add(record.partition());
            keys.add(new String(record.key(), StandardCharsets.UTF_8));
        }

        assertThat(images).hasSize(44);
        assertThat(robots).hasSize(4);
        assertThat(partitions).containsExactlyInAnyOrder(0, 1);
        assertThat(keys).hasSameSizeAs(images);
    }

    @Test
    void aReSentFrameRepeatsAnEarlierFramesValueKeyPartitionAndHeadersButItsSeq() {
        DemoWorkload workload = new DemoWorkload(3, 2000, EXTERNAL);
        List<Integer> resent = indexesOf(workload, DemoRecordKind.RESENT_FRAME);

        for (int index : resent) {
            int frame = workload.resentFrame(index);
            ProducerRecord<byte[], byte[]> again = workload.producerRecord("blobs", 2, index);
            ProducerRecord<byte[], byte[]> first = workload.producerRecord("blobs", 2, frame);
            assertThat(frame).as("record %d", index).isLessThan(index);
            assertThat(workload.kind(frame)).isEqualTo(DemoRecordKind.CAMERA_FRAME);
            assertThat(again.value()).as("record %d", index).isEqualTo(first.value());
            assertThat(again.key()).isEqualTo(first.key());
            assertThat(again.partition()).isEqualTo(first.partition());
            assertThat(header(again, "captured-at")).isEqualTo(header(first, "captured-at"));
            assertThat(DemoWorkload.indexOf(workload.passedThroughHeaders(index)))
                    .isEqualTo(index);
        }
        assertThat(resent).hasSize(28);
    }

    /** The demo's expectations hold for the job's own classifier under the demo's settings. */
    @Test
    void theJobsClassifierGivesEveryRecordTheOutcomeTheDemoExpects() {
        DemoWorkload workload = new DemoWorkload(11, 400, EXTERNAL);
        BlobRecordClassifier classifier = DemoRecords.classifier(workload);

        for (int i = 0; i < workload.count(); i++) {
            assertOutcome(workload, i, classifier.classify(DemoRecords.blobRecord(workload, i)));
        }
    }

    private static List<Integer> indexesOf(DemoWorkload workload, DemoRecordKind kind) {
        return IntStream.range(0, workload.count())
                .filter(i -> workload.kind(i) == kind)
                .boxed()
                .toList();
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static void assertOutcome(DemoWorkload workload, int index, ClassifiedRecord classified) {
        switch (workload.kind(index)) {
            case BAD ->
                assertThat(classified)
                        .as("record %d", index)
                        .isInstanceOfSatisfying(
                                DeadLetter.class,
                                deadLetter -> assertThat(deadLetter.code())
                                        .isEqualTo(workload.fault(index).expectedCode()));
            case EXTERNAL_INGEST ->
                assertThat(classified).as("record %d", index).isInstanceOf(ExternalFetch.class);
            default ->
                assertThat(classified)
                        .as("record %d", index)
                        .isInstanceOfSatisfying(
                                PlacedBlob.class,
                                placed -> assertThat(BlobKind.valueOf(
                                                placed.placement().name()))
                                        .isEqualTo(workload.expectedKind(index)));
        }
    }
}
