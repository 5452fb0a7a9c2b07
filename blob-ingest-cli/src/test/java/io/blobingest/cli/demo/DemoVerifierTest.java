package io.blobingest.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobSets;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DemoVerifier#check} over outcomes made by hand as the job makes them (see {@link
 * DemoRecords}): it passes them when they are right and names the record when they are not.
 */
class DemoVerifierTest {

    @TempDir
    Path base;

    private DemoWorkload workload;
    private DemoVerifier verifier;

    @BeforeEach
    void writeTheExternalFiles() throws IOException {
        workload = new DemoWorkload(5, DemoWorkload.MIN_COUNT, base.resolve("_external"));
        ExternalFiles.write(workload);
        verifier = new DemoVerifier(workload, base.toUri(), "unused:9092");
    }

    @Test
    void everyBlobMatchesWhenEveryRecordHasItsOutcomeAndItsBytes() throws IOException {
        DemoRecords records = DemoRecords.place(workload, base);

        Verification verification = verifier.check(records.descriptors, records.deadLetters);

        assertThat(verification.problems()).isEmpty();
        assertThat(verification.everyBlobMatched()).isTrue();
        assertThat(verification.blobsMatched())
                .isEqualTo(records.descriptors.size())
                .isPositive();
        assertThat(verification.deadLettersMatched()).isEqualTo(records.deadLetters.size());
        assertThat(verification.ingestPlaced()).isEqualTo(1);
        assertThat(verification.batches()).isPositive();
    }

    @Test
    void duplicatesWhoseDescriptorsNameTheFirstCopysEntryMatchTheirOwnRecords() throws IOException {
        DemoRecords records = DemoRecords.place(workload, base);
        int firstImage = 23;
        int secondImage = 68;
        int resent = 40;
        int frame = workload.resentFrame(resent);
        assertThat(workload.kind(secondImage)).isEqualTo(DemoRecordKind.CALIBRATION_IMAGE);
        assertThat(records.rows.get(secondImage).blob())
                .isEqualTo(records.rows.get(firstImage).blob());
        assertThat(records.rows.get(resent).blob())
                .isEqualTo(records.rows.get(frame).blob());

        Verification verification = verifier.check(records.descriptors, records.deadLetters);

        assertThat(verification.problems()).isEmpty();
        assertThat(verification.blobsMatched()).isEqualTo(records.descriptors.size());
    }

    @Test
    void aFlippedByteInTheDedicatedSidecarIsAMismatchNamingItsRecord() throws IOException {
        DemoRecords records = DemoRecords.place(workload, base);
        int segment = 95;
        assertThat(workload.kind(segment)).isEqualTo(DemoRecordKind.VIDEO_SEGMENT);
        try (RandomAccessFile file = new RandomAccessFile(
                Path.of(BlobSets.sidecarUri(base.toUri(), DemoRecords.BLOB_SET, 2))
                        .toFile(),
                "rw")) {
            file.seek(1000);
            int b = file.read();
            file.seek(1000);
            file.write(b ^ 0x01);
        }

        Verification verification = verifier.check(records.descriptors, records.deadLetters);

        assertThat(verification.everyBlobMatched()).isFalse();
        assertThat(verification.problems())
                .singleElement()
                .asString()
                .startsWith("record 95 (video segment): read back")
                .contains("first at byte 1000");
    }

    @Test
    void aRecordWithoutItsDeadLetterIsReported() throws IOException {
        DemoRecords records = DemoRecords.place(workload, base);
        List<ConsumerRecord<byte[], byte[]>> deadLetters = new ArrayList<>(records.deadLetters);
        deadLetters.remove(0);

        Verification verification = verifier.check(records.descriptors, deadLetters);

        assertThat(verification.everyBlobMatched()).isFalse();
        assertThat(verification.problems())
                .singleElement()
                .asString()
                .isEqualTo("record 5 (bad record): expected a dead letter null-value, found nothing");
    }

    @Test
    void aSecondDescriptorOfARecordIsReported() throws IOException {
        DemoRecords records = DemoRecords.place(workload, base);
        List<ConsumerRecord<byte[], byte[]>> descriptors = new ArrayList<>(records.descriptors);
        descriptors.add(DemoRecords.redelivered(descriptors.get(3), descriptors.size()));

        Verification verification = verifier.check(descriptors, records.deadLetters);

        assertThat(verification.everyBlobMatched()).isFalse();
        assertThat(verification.problems()).singleElement().asString().contains("a second descriptor");
    }
}
