package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.internal.delivery.DeliveryMarkers;
import io.blobingest.storage.FlinkFileSystemStorage;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.net.URI;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The end check of a chaos run over the {@code s3://} base {@code prefix}: every input of the
 * {@link ChaosWorkload} is exactly one committed descriptor (and manifest row), byte-exact through
 * the Object Layer, or exactly one dead letter with its code; every pack verifies; S3 shows
 * committed blob sets only. Prints what it found on two lines.
 *
 * @param mayFailFetching whether an ingest-mode External record may be a {@code fetch-failed} dead
 *     letter instead of a descriptor (a run whose copies may time out); no other input may
 */
record ChaosOutcome(
        KafkaBrokerExtension kafka,
        S3ServerExtension s3,
        String prefix,
        String descriptorTopic,
        String deadLetterTopic,
        boolean mayFailFetching) {

    /** @return the inputs that must have been placed: all but those with a dead letter */
    Set<Integer> assertEveryInputExactlyOnce(ChaosWorkload workload, int inputs) throws Exception {
        URI base = s3.uri(prefix);
        Map<Integer, String> codes =
                workload.assertOneDeadLetterPerBadInput(kafka, deadLetterTopic, inputs, mayFailFetching);
        Set<Integer> placed = IntStream.range(0, inputs)
                .filter(i -> !codes.containsKey(i))
                .boxed()
                .collect(Collectors.toSet());
        PipelineOutput output = PipelineOutput.read(kafka, descriptorTopic, base, new FlinkFileSystemStorage());
        output.assertExactlyOnceAndByteExact(workload, placed);

        // Visible: the committed manifests, and the sidecars their rows name; nothing else.
        List<org.apache.flink.core.fs.Path> manifests = PipelineOutput.manifests(base);
        Set<String> committed = new TreeSet<>();
        manifests.forEach(m -> committed.add(prefix + "/" + BlobSets.DESCRIPTORS_DIRECTORY + "/" + m.getName()));
        for (DescriptorRow row : output.manifestRows) {
            if (row.blob().kind() == BlobKind.PACKED || row.blob().kind() == BlobKind.DEDICATED) {
                committed.add(prefix + "/" + row.blobSet() + "/"
                        + BlobSets.sidecarFileName(row.blob().blobId()));
            }
        }
        String markers = prefix + "/" + DeliveryMarkers.DIRECTORY + "/";
        assertThat(s3.objectKeys(prefix + "/").stream().filter(key -> !key.startsWith(markers)))
                .as("objects visible under " + base + " beside the delivery markers")
                .containsExactlyElementsOf(committed);

        RunResult verify = TestEnvironment.runCli(S3CliOptions.withS3Options(s3, "pack", "verify", base.toString()));
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).containsPattern("[1-9][0-9]* packs checked, 0 faults");
        System.out.printf(
                "chaos run: %d descriptors in %d blob sets (%d packs and sidecars on S3, %d multipart uploads"
                        + " of failed attempts left unfinished, invisible), %d dead letters; %s%n",
                output.descriptors.size(),
                manifests.size(),
                committed.size() - manifests.size(),
                s3.inProgressMultipartUploads().stream()
                        .filter(u -> u.key().startsWith(prefix + "/"))
                        .count(),
                codes.size(),
                verify.output().strip().replace('\n', ' '));
        Map<BlobKind, Long> kinds = output.descriptors.stream()
                .collect(Collectors.groupingBy(
                        r -> r.blob().kind(), () -> new EnumMap<>(BlobKind.class), Collectors.counting()));
        System.out.printf(
                "chaos run: descriptors by kind %s; dead letters by code %s%n",
                kinds,
                codes.values().stream().collect(Collectors.groupingBy(c -> c, TreeMap::new, Collectors.counting())));
        return placed;
    }
}
