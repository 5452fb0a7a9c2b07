package io.blobingest.cli.demo;

import io.blobingest.job.RunBaseline;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.core.fs.Path;

/**
 * How far a run has got, counted from what it has made visible: the descriptor manifests it has
 * committed (each read once) and the committed records of the dead-letter topic. It lags the job
 * by up to a checkpoint, but it only ever counts what a reader can already see, and works the same
 * whether the job runs in this JVM or on a cluster.
 */
public final class CommittedProgress {

    /** Totals so far. {@code bytesPlaced} counts Inline, Packed and Dedicated blobs, not External references. */
    public record Totals(long descriptors, long bytesPlaced, int packs, long deadLetters) {
        /** Input records accounted for: each has either a descriptor or a dead letter. */
        public long records() {
            return descriptors + deadLetters;
        }
    }

    private final RunBaseline baseline;
    private final CommittedTopic deadLetterTopic;
    private final Set<String> manifestsRead = new HashSet<>();
    private final Set<String> packs = new HashSet<>();
    private long descriptors;
    private long bytesPlaced;
    private long deadLetters;

    /**
     * @param baseline taken before the job started: manifests already there are not counted
     * @param deadLetterTopic read by this object from now on
     */
    public CommittedProgress(RunBaseline baseline, CommittedTopic deadLetterTopic) {
        this.baseline = baseline;
        this.deadLetterTopic = deadLetterTopic;
    }

    /** Reads the manifests committed and the dead letters that arrived since the last call, without waiting. */
    public Totals refresh() throws IOException {
        countNewManifests();
        deadLetters += deadLetterTopic.poll(Duration.ZERO).size();
        return totals();
    }

    /**
     * Reads the manifests committed and the dead-letter topic up to its last stable offsets as they
     * are now: the count after the job ended, when a poll that does not wait may still return
     * nothing of what was committed.
     */
    public Totals refreshToEnd(Duration timeout) throws IOException {
        countNewManifests();
        deadLetters += deadLetterTopic.readToEnd(timeout).size();
        return totals();
    }

    private void countNewManifests() throws IOException {
        for (Path manifest : baseline.newManifests()) {
            if (manifestsRead.add(manifest.getName())) {
                count(manifest);
            }
        }
    }

    private Totals totals() {
        return new Totals(descriptors, bytesPlaced, packs.size(), deadLetters);
    }

    private void count(Path manifest) throws IOException {
        try (DescriptorManifestReader reader = DescriptorManifestReader.open(manifest)) {
            for (DescriptorRow row : reader.readAll()) {
                descriptors++;
                BlobKind kind = row.blob().kind();
                if (kind != BlobKind.EXTERNAL) {
                    bytesPlaced += row.blob().size();
                }
                if (kind == BlobKind.PACKED) {
                    packs.add(row.blobSet() + "/" + row.blob().blobId());
                }
            }
        }
    }
}
