package io.blobingest.objectlayer;

import static io.blobingest.objectlayer.BlobFixtures.payloads;
import static io.blobingest.objectlayer.BlobFixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.RecordingBlobStorage.Access;
import io.blobingest.objectlayer.RecordingBlobStorage.Op;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link ObjectLayer#readAll}: what comes back, and how many physical reads it takes. */
class BatchReadTest extends ObjectLayerTestBase {

    private static final String SET = "batch";
    private static final int MIB = 1024 * 1024;

    private List<BlobRequest> requests(List<BlobDescriptor> descriptors) {
        return descriptors.stream()
                .map(d -> BlobRequest.of(d, fixtures.objectPackSet(SET)))
                .toList();
    }

    private long packLength(long sidecarId) throws IOException {
        return Files.size(fixtures.sidecarPath(SET, sidecarId));
    }

    @Test
    void hundredAdjacentEntriesOfOnePackTakeOneFooterReadAndOnePayloadRead() throws IOException {
        List<byte[]> payloads = payloads(100, 500);
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads);
        URI pack = fixtures.sidecar(SET, 1);

        List<byte[]> blobs = layer.readAll(requests(entries));

        assertThat(blobs).containsExactlyElementsOf(payloads);
        assertThat(storage.log())
                .containsExactly(
                        new Access(Op.OPEN, pack, 0, 0),
                        new Access(Op.LENGTH, pack, 0, 0),
                        new Access(Op.READ, pack, 0, packLength(1)),
                        new Access(Op.READ, pack, 16, 100 * 500));
    }

    @Test
    void gapsUpToTheHoleLimitAreReadThroughAndLargerGapsSplitReads() throws IOException {
        int holeLimit = 8 * 1024;
        List<BlobDescriptor> entries = fixtures.writePack(
                SET,
                1,
                List.of(new byte[100], new byte[holeLimit + 1], new byte[100], new byte[holeLimit], new byte[100]));
        URI pack = fixtures.sidecar(SET, 1);

        layer.readAll(requests(List.of(entries.get(0), entries.get(2), entries.get(4))));

        long second = 16 + 100 + holeLimit + 1;
        assertThat(storage.reads())
                .containsExactly(
                        new Access(Op.READ, pack, 0, packLength(1)),
                        new Access(Op.READ, pack, 16, 100),
                        new Access(Op.READ, pack, second, 100 + holeLimit + 100));
    }

    @Test
    void aFortyMibSpanIsReadInThreeReadsOfAtMostSixteenMib() throws IOException {
        List<byte[]> payloads = payloads(40, MIB);
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads);
        URI pack = fixtures.sidecar(SET, 1);
        long length = packLength(1);

        List<byte[]> blobs = layer.readAll(requests(entries));

        assertThat(blobs).containsExactlyElementsOf(payloads);
        assertThat(storage.reads())
                .containsExactly(
                        new Access(Op.READ, pack, length - 64 * 1024, 64 * 1024),
                        new Access(Op.READ, pack, 16, 16 * MIB),
                        new Access(Op.READ, pack, 16 + 16 * MIB, 16 * MIB),
                        new Access(Op.READ, pack, 16 + 32 * MIB, 8 * MIB));
    }

    @Test
    void anIdenticalRangeIsReadOnceAndEveryRequestGetsItsOwnArray() throws IOException {
        byte[] frame = randomBytes(3000, 7);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, new RawPackMetadata(SET, 1, "test"));
        long original = writer.append(frame);
        writer.append(new byte[20_000]);
        long shared = writer.appendShared(original);
        writer.finish();
        fixtures.write(SET, 1, out.toByteArray());
        BlobDescriptor first = BlobDescriptor.packed(original, frame.length, 1);
        BlobDescriptor copy = BlobDescriptor.packed(shared, frame.length, 1);

        List<byte[]> blobs = layer.readAll(requests(List.of(first, copy, first)));

        assertThat(blobs).containsExactly(frame, frame, frame);
        assertThat(blobs.get(0)).isNotSameAs(blobs.get(1)).isNotSameAs(blobs.get(2));
        assertThat(blobs.get(1)).isNotSameAs(blobs.get(2));
        assertThat(storage.reads())
                .hasSize(2)
                .last()
                .isEqualTo(new Access(Op.READ, fixtures.sidecar(SET, 1), 16, 3000));
    }

    @Test
    void aSecondBatchFindsTheFooterInTheCache() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(10, 100));
        layer.readAll(requests(entries.subList(0, 5)));
        storage.clear();

        List<byte[]> blobs = layer.readAll(requests(entries.subList(5, 10)));

        assertThat(blobs).containsExactlyElementsOf(payloads(10, 100).subList(5, 10));
        assertThat(storage.reads()).containsExactly(new Access(Op.READ, fixtures.sidecar(SET, 1), 16 + 500, 500));
        assertThat(storage.count(Op.LENGTH))
                .as("the cache key includes the length")
                .isEqualTo(1);
    }

    @Test
    void withoutAFooterCacheEveryBatchReadsTheFooter() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(10, 100));
        try (ObjectLayer uncached =
                ObjectLayer.builder(storage).footerCacheSize(0).build()) {
            uncached.readAll(requests(entries));
            storage.clear();

            uncached.readAll(requests(entries));

            assertThat(storage.reads())
                    .hasSize(2)
                    .first()
                    .isEqualTo(new Access(Op.READ, fixtures.sidecar(SET, 1), 0, packLength(1)));
        }
    }

    @Test
    void aRewrittenPackOfAnotherLengthIsNotServedTheCachedFooter() throws IOException {
        layer.readAll(requests(fixtures.writePack(SET, 1, payloads(2, 100))));
        List<BlobDescriptor> rewritten = fixtures.writePack(SET, 1, payloads(3, 200));
        storage.clear();

        List<byte[]> blobs = layer.readAll(requests(rewritten));

        assertThat(blobs).containsExactlyElementsOf(payloads(3, 200));
        assertThat(storage.reads()).as("footer and payload").hasSize(2);
    }

    @Test
    void blobsComeBackInInputOrderAcrossObjectsAndKinds() throws IOException {
        List<BlobRequest> requests = new ArrayList<>();
        List<byte[]> expected = new ArrayList<>();
        for (long id = 1; id <= 3; id++) {
            List<byte[]> payloads = payloads(5, (int) (100 * id));
            List<BlobDescriptor> entries = fixtures.writePack(SET, id, payloads);
            for (int i = 0; i < 5; i++) {
                requests.add(BlobRequest.of(entries.get(i), fixtures.objectPackSet(SET)));
                expected.add(payloads.get(i));
            }
        }
        byte[] dedicated = randomBytes(10_000, 4);
        requests.add(BlobRequest.of(fixtures.writeDedicated(SET, 4, dedicated), fixtures.objectPackSet(SET)));
        expected.add(dedicated);
        byte[] inline = randomBytes(12, 5);
        requests.add(new BlobRequest(BlobDescriptor.inline(12), ResolveContext.noBlobSet(), inline));
        expected.add(inline);
        Path external = Files.write(root.resolve("external.bin"), randomBytes(300, 6));
        requests.add(BlobRequest.of(
                BlobDescriptor.external(external.toUri().toString(), 100, 50), ResolveContext.noBlobSet()));
        expected.add(java.util.Arrays.copyOfRange(randomBytes(300, 6), 100, 150));
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(42));

        List<byte[]> blobs = layer.readAll(order.stream().map(requests::get).toList());

        assertThat(blobs)
                .containsExactlyElementsOf(order.stream().map(expected::get).toList());
        assertThat(blobs.get(order.indexOf(16)))
                .as("inline_data is returned as is")
                .isSameAs(inline);
        assertThat(storage.count(Op.OPEN)).as("one open per object").isEqualTo(5);
    }

    @Test
    void emptyBlobsNeedNoPayloadRead() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, List.of(new byte[0], new byte[0]));

        List<byte[]> blobs = layer.readAll(requests(entries));

        assertThat(blobs).containsExactly(new byte[0], new byte[0]);
        assertThat(storage.reads()).hasSize(1);
    }

    @Test
    void anEmptyBatchReadsNothing() throws IOException {
        assertThat(layer.readAll(List.of())).isEmpty();
        assertThat(storage.log()).isEmpty();
    }

    @Test
    void aBatchFailsAsAWholeNamingTheMissingFile() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(2, 100));
        BlobDescriptor missing = BlobDescriptor.dedicated(10, 9);

        assertThatThrownBy(() -> layer.readAll(requests(List.of(entries.get(0), missing, entries.get(1)))))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(fixtures.sidecarPath(SET, 9).toString());
    }

    @Test
    void aClosedLayerRefusesBatches() {
        layer.close();

        assertThatThrownBy(() -> layer.readAll(List.of())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void severalSidecarsAreReadAtOnceButNeverMoreThanTheConcurrency() throws IOException {
        List<BlobRequest> requests = new ArrayList<>();
        for (long id = 1; id <= 6; id++) {
            requests.add(BlobRequest.of(
                    fixtures.writeDedicated(SET, id, randomBytes(1000, id)), fixtures.objectPackSet(SET)));
        }
        OverlapProbe probe = new OverlapProbe(new LocalBlobStorage(), 2);
        try (ObjectLayer twoAtOnce = ObjectLayer.builder(probe).concurrency(2).build()) {

            twoAtOnce.readAll(requests);

            assertThat(probe.maxInFlight.get()).isEqualTo(2);
        }
    }

    /**
     * Holds the first reads until {@code expected} of them are in flight together, so a reader that
     * reads one object at a time fails instead of passing; records how many ever overlapped.
     */
    private static final class OverlapProbe implements BlobStorage {
        private final BlobStorage delegate;
        private final CountDownLatch together;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger maxInFlight = new AtomicInteger();

        OverlapProbe(BlobStorage delegate, int expected) {
            this.delegate = delegate;
            this.together = new CountDownLatch(expected);
        }

        @Override
        public ReadableObject open(URI location) throws IOException {
            return new ForwardingReadableObject(delegate.open(location)) {
                @Override
                public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
                    whileInFlight(() -> super.readFully(position, buffer, offset, length));
                }

                @Override
                public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
                    whileInFlight(() -> super.readScattered(position, targets));
                }
            };
        }

        private interface Read {
            void run() throws IOException;
        }

        private void whileInFlight(Read read) throws IOException {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                together.countDown();
                // A liveness guard, not a timing assertion: sequential reads never get here together.
                if (!together.await(30, TimeUnit.SECONDS)) {
                    throw new IOException("reads never overlapped: objects are read one at a time");
                }
                read.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }
}
