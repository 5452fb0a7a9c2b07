package io.blobingest.objectlayer;

import static io.blobingest.objectlayer.BlobFixtures.payloads;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each storage's {@link ReadTuning} decides how a batch reads its objects; the builder can override it. */
class ReadTuningTest {

    private static final String SET = "tuned";
    private static final int ENTRY = 1000;

    @TempDir
    Path root;

    /** Seven entries of one pack; the batch wants every other one, so every wanted range is a hole apart. */
    private List<BlobRequest> everyOtherEntry(BlobFixtures fixtures) throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(7, ENTRY));
        return List.of(entries.get(0), entries.get(2), entries.get(4), entries.get(6)).stream()
                .map(d -> BlobRequest.of(d, fixtures.objectPackSet(SET)))
                .toList();
    }

    private static List<byte[]> everyOtherPayload() {
        List<byte[]> all = payloads(7, ENTRY);
        return List.of(all.get(0), all.get(2), all.get(4), all.get(6));
    }

    @Test
    void anObjectStoresReadsOfOneObjectAreInFlightTogether() throws IOException {
        BlobFixtures fixtures = new BlobFixtures(root);
        List<BlobRequest> requests = everyOtherEntry(fixtures);
        ScatteredReadProbe probe = new ScatteredReadProbe(new ReadTuning(0, 4, true), 4);

        try (ObjectLayer layer = ObjectLayer.builder(probe).build()) {
            List<byte[]> blobs = layer.readAll(requests);

            assertThat(blobs).containsExactlyElementsOf(everyOtherPayload());
        }
        assertThat(probe.reads.get()).isEqualTo(4);
        assertThat(probe.maxInFlight.get()).isEqualTo(4);
    }

    @Test
    void onLocalDiskOneObjectsReadsRunOneAfterTheOtherOnOneThread() throws IOException {
        BlobFixtures fixtures = new BlobFixtures(root);
        List<BlobRequest> requests = everyOtherEntry(fixtures);
        ScatteredReadProbe probe = new ScatteredReadProbe(ReadTuning.LOCAL.withHoleLimit(0), 1);

        try (ObjectLayer layer = ObjectLayer.builder(probe).build()) {
            List<byte[]> blobs = layer.readAll(requests);

            assertThat(blobs).containsExactlyElementsOf(everyOtherPayload());
        }
        assertThat(probe.reads.get()).isEqualTo(4);
        assertThat(probe.threads).hasSize(1);
    }

    @Test
    void theStoragesHoleLimitDecidesHowFarReadsAreMerged() throws IOException {
        BlobFixtures fixtures = new BlobFixtures(root);
        List<BlobRequest> requests = everyOtherEntry(fixtures);
        ScatteredReadProbe wide = new ScatteredReadProbe(ReadTuning.LOCAL.withHoleLimit(ENTRY), 1);
        ScatteredReadProbe narrow = new ScatteredReadProbe(ReadTuning.LOCAL.withHoleLimit(ENTRY - 1), 1);

        try (ObjectLayer wideLayer = ObjectLayer.builder(wide).build();
                ObjectLayer narrowLayer = ObjectLayer.builder(narrow).build()) {
            assertThat(wideLayer.readAll(requests)).containsExactlyElementsOf(everyOtherPayload());
            assertThat(narrowLayer.readAll(requests)).containsExactlyElementsOf(everyOtherPayload());
        }
        assertThat(wide.reads.get()).isEqualTo(1);
        assertThat(narrow.reads.get()).isEqualTo(4);
    }

    @Test
    void theBuildersHoleLimitAndConcurrencyOverrideTheStoragesTuning() {
        ScatteredReadProbe objectStore = new ScatteredReadProbe(ReadTuning.OBJECT_STORE, 1);
        URI object = root.resolve("any.blob").toUri();

        try (ObjectLayer tuned = ObjectLayer.builder(objectStore).build();
                ObjectLayer overridden = ObjectLayer.builder(objectStore)
                        .holeLimit(4096)
                        .concurrency(3)
                        .build()) {
            assertThat(tuned.readTuning(object)).isEqualTo(ReadTuning.OBJECT_STORE);
            assertThat(overridden.readTuning(object)).isEqualTo(new ReadTuning(4096, 3, true));
        }
    }

    @Test
    void aStoragesHoleLimitIsHeldBelowTheMaxMergedRange() {
        ScatteredReadProbe objectStore = new ScatteredReadProbe(ReadTuning.OBJECT_STORE, 1);
        URI object = root.resolve("any.blob").toUri();

        try (ObjectLayer layer =
                ObjectLayer.builder(objectStore).maxMergedRange(64 * 1024).build()) {
            assertThat(layer.readTuning(object).holeLimit()).isEqualTo(64 * 1024 - 1);
        }
    }

    /**
     * Local storage with a given tuning that watches payload reads (scattered reads; footers are
     * read with {@code readFully}): how many, on which threads, and how many were ever in flight
     * together. The first {@code expectedTogether} are held until they all are, so a reader that
     * reads them one after the other fails instead of passing.
     */
    private static final class ScatteredReadProbe implements BlobStorage {
        private final BlobStorage delegate = new LocalBlobStorage();
        private final ReadTuning tuning;
        private final CountDownLatch together;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        private final AtomicInteger inFlight = new AtomicInteger();

        ScatteredReadProbe(ReadTuning tuning, int expectedTogether) {
            this.tuning = tuning;
            this.together = new CountDownLatch(expectedTogether);
        }

        @Override
        public ReadTuning readTuning(URI location) {
            return tuning;
        }

        @Override
        public ReadableObject open(URI location) throws IOException {
            return new ForwardingReadableObject(delegate.open(location)) {
                @Override
                public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
                    reads.incrementAndGet();
                    threads.add(Thread.currentThread().getName());
                    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    try {
                        together.countDown();
                        // A liveness guard, not a timing assertion: reads one after the other never get here together.
                        if (!together.await(30, TimeUnit.SECONDS)) {
                            throw new IOException("reads of one object never overlapped");
                        }
                        super.readScattered(position, targets);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException();
                    } finally {
                        inFlight.decrementAndGet();
                    }
                }
            };
        }
    }
}
