package io.blobingest.job.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.storage.DirectoryListing;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.FileStatus;
import org.apache.kafka.common.header.Header;

/** What a pipeline run left behind, and the checks every pipeline test makes of it. */
public final class PipelineOutput {

    public final List<DescriptorRow> descriptors;
    public final List<DescriptorRow> manifestRows;
    public final URI base;
    private final BlobStorage storage;

    private PipelineOutput(
            List<DescriptorRow> descriptors, List<DescriptorRow> manifestRows, URI base, BlobStorage storage) {
        this.descriptors = descriptors;
        this.manifestRows = manifestRows;
        this.base = base;
        this.storage = storage;
    }

    public static PipelineOutput read(KafkaBrokerExtension kafka, String descriptorTopic, Path base)
            throws IOException {
        return read(kafka, descriptorTopic, base.toUri(), new LocalBlobStorage());
    }

    /** What a run left under {@code base} on any Flink file system, read back through {@code storage}. */
    public static PipelineOutput read(KafkaBrokerExtension kafka, String descriptorTopic, URI base, BlobStorage storage)
            throws IOException {
        return read(kafka, List.of(descriptorTopic), base, storage);
    }

    /** What a run with a descriptor topic per input topic left, reading each of {@code descriptorTopics}. */
    public static PipelineOutput read(KafkaBrokerExtension kafka, List<String> descriptorTopics, Path base)
            throws IOException {
        return read(kafka, descriptorTopics, base.toUri(), new LocalBlobStorage());
    }

    private static PipelineOutput read(
            KafkaBrokerExtension kafka, List<String> descriptorTopics, URI base, BlobStorage storage)
            throws IOException {
        List<DescriptorRow> descriptors = descriptorTopics.stream()
                .flatMap(topic -> kafka.drainCommitted(topic).stream())
                .map(DescriptorRecords::parse)
                .collect(Collectors.toList());
        List<DescriptorRow> manifestRows = new ArrayList<>();
        for (org.apache.flink.core.fs.Path manifest : manifests(base)) {
            try (DescriptorManifestReader reader = DescriptorManifestReader.open(manifest)) {
                manifestRows.addAll(reader.readAll());
            }
        }
        return new PipelineOutput(descriptors, manifestRows, base, storage);
    }

    /** The committed manifests under {@code base}, sorted. */
    public static List<org.apache.flink.core.fs.Path> manifests(URI base) throws IOException {
        org.apache.flink.core.fs.Path directory = new org.apache.flink.core.fs.Path(
                new org.apache.flink.core.fs.Path(base), BlobSets.DESCRIPTORS_DIRECTORY);
        return DirectoryListing.list(directory).stream()
                .map(FileStatus::getPath)
                .filter(p -> p.getName().endsWith(BlobSets.MANIFEST_SUFFIX))
                .sorted(Comparator.comparing(org.apache.flink.core.fs.Path::toString))
                .toList();
    }

    /** This output without the rows {@code excluded} matches, for a test that checks those by other means. */
    public PipelineOutput excluding(Predicate<DescriptorRow> excluded) {
        return new PipelineOutput(
                descriptors.stream().filter(excluded.negate()).toList(),
                manifestRows.stream().filter(excluded.negate()).toList(),
                base,
                storage);
    }

    /** What a pipeline test expects of its inputs' descriptors, by input index (the {@code seq} header). */
    public interface Inputs {

        /** The bytes the descriptor must resolve to. */
        byte[] bytes(int index);

        byte[] key(int index);

        /** The headers the descriptor must carry, in order ({@code blob.*} headers do not travel). */
        List<Header> headers(int index);

        BlobKind kind(int index);

        /** The Kafka timestamp input {@code index} was sent with; null when the test leaves it to the producer. */
        default Long timestamp(int index) {
            return null;
        }
    }

    /**
     * Every input of {@code workload} whose index is in {@code placed} has exactly one descriptor
     * and exactly one manifest row, and nothing else does; each resolves byte-exact through the
     * Object Layer, with the input's crc32c when the blob is owned, and carries the input's key and
     * headers.
     */
    public void assertExactlyOnceAndByteExact(Inputs workload, Set<Integer> placed) throws IOException {
        assertExactlyOnceAndByteExact(workload, placed, workload::kind);
    }

    /** As {@link #assertExactlyOnceAndByteExact(Inputs, Set)}, for a run that placed by {@code policy}. */
    public void assertExactlyOnceAndByteExact(Inputs workload, Set<Integer> placed, PlacementPolicy policy)
            throws IOException {
        assertExactlyOnceAndByteExact(
                workload,
                placed,
                index -> BlobKind.valueOf(
                        policy.place(workload.bytes(index).length).name()));
    }

    private void assertExactlyOnceAndByteExact(Inputs workload, Set<Integer> placed, IntFunction<BlobKind> expectedKind)
            throws IOException {
        assertExactlyOnce(descriptors, placed, "descriptor topic");
        assertExactlyOnce(manifestRows, placed, "manifests");
        Map<Integer, DescriptorRow> byIndex = new HashMap<>();
        for (DescriptorRow row : descriptors) {
            byIndex.put(TestWorkload.indexOf(row.attributes()), row);
        }
        try (ObjectLayer objectLayer = ObjectLayer.builder(storage).build()) {
            List<Integer> indexes = new ArrayList<>(byIndex.keySet());
            // Batches keep the heap bounded: the workload holds 20 MiB blobs.
            for (int from = 0; from < indexes.size(); from += 200) {
                List<Integer> batch = indexes.subList(from, Math.min(indexes.size(), from + 200));
                List<BlobRequest> requests = batch.stream()
                        .map(i -> BlobRequest.forRow(byIndex.get(i), base, BlobFeatures.ALL))
                        .toList();
                List<byte[]> blobs = objectLayer.readAll(requests);
                for (int k = 0; k < batch.size(); k++) {
                    int index = batch.get(k);
                    DescriptorRow row = byIndex.get(index);
                    byte[] expected = workload.bytes(index);
                    assertThat(blobs.get(k))
                            .as("bytes of input %d (%s)", index, row.blob())
                            .isEqualTo(expected);
                    assertThat(row.crc32c())
                            .as("crc32c of input %d", index)
                            .isEqualTo(expectedKind.apply(index) == BlobKind.EXTERNAL ? null : crc32c(expected));
                    assertThat(row.key()).as("key of input %d", index).isEqualTo(workload.key(index));
                    assertThat(row.attributes())
                            .as("headers of input %d", index)
                            .usingElementComparator((a, b) ->
                                    a.name().equals(b.name()) && java.util.Arrays.equals(a.value(), b.value()) ? 0 : 1)
                            .containsExactlyElementsOf(attributes(workload.headers(index)));
                    assertThat(row.blob().kind()).as("kind of input %d", index).isEqualTo(expectedKind.apply(index));
                }
            }
        }
        for (DescriptorRow row :
                Stream.concat(descriptors.stream(), manifestRows.stream()).toList()) {
            int index = TestWorkload.indexOf(row.attributes());
            if (workload.timestamp(index) != null) {
                assertThat(row.sourceTimestamp())
                        .as("timestamp of input %d", index)
                        .isEqualTo(workload.timestamp(index));
            }
        }
    }

    private static void assertExactlyOnce(List<DescriptorRow> rows, Set<Integer> placed, String where) {
        Map<Integer, Long> counts = rows.stream()
                .collect(Collectors.groupingBy(r -> TestWorkload.indexOf(r.attributes()), Collectors.counting()));
        Set<Integer> duplicated = new HashSet<>();
        counts.forEach((index, count) -> {
            if (count > 1) {
                duplicated.add(index);
            }
        });
        assertThat(duplicated).as("inputs seen more than once in the " + where).isEmpty();
        Set<Integer> missing = new java.util.TreeSet<>(placed);
        missing.removeAll(counts.keySet());
        Set<Integer> unexpected = new java.util.TreeSet<>(counts.keySet());
        unexpected.removeAll(placed);
        assertThat(missing)
                .as("inputs missing from the %s (%d of %d)", where, missing.size(), placed.size())
                .isEmpty();
        assertThat(unexpected)
                .as("inputs in the %s that should not be there", where)
                .isEmpty();
    }

    public static BlobKind expectedKind(long size) {
        if (size <= 64 * 1024) {
            return BlobKind.INLINE;
        }
        return size > 4 * 1024 * 1024 ? BlobKind.DEDICATED : BlobKind.PACKED;
    }

    private static List<DescriptorRow.Attribute> attributes(List<Header> headers) {
        return headers.stream()
                .map(h -> new DescriptorRow.Attribute(h.key(), h.value()))
                .toList();
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
