package io.blobingest.objectlayer;

import static io.blobingest.objectlayer.BlobFixtures.payloads;
import static io.blobingest.objectlayer.BlobFixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.RecordingBlobStorage.Access;
import io.blobingest.objectlayer.RecordingBlobStorage.Op;
import io.blobingest.objectlayer.pack.RawPackFormat;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Invariant {@code plan_before_payload}: planning reads only metadata (a pack footer, a file
 * length), no payload byte is read before the plan is complete, and reading a plan never needs
 * another object.
 */
class PlanBeforePayloadTest extends ObjectLayerTestBase {

    private static final String SET = "plan-first";
    private static final int WINDOW = RawPackFormat.FOOTER_READ_AHEAD;

    @Override
    ObjectLayer.Builder configure(ObjectLayer.Builder builder) {
        return builder.concurrency(4);
    }

    @Test
    void planningAPackEntryReadsOnlyTheTailWindow() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(3, 40_000));
        URI pack = fixtures.sidecar(SET, 1);
        long length = Files.size(fixtures.sidecarPath(SET, 1));

        layer.plan(layer.resolve(entries.get(0), fixtures.objectPackSet(SET)));

        assertThat(storage.log())
                .containsExactly(
                        new Access(Op.OPEN, pack, 0, 0),
                        new Access(Op.LENGTH, pack, 0, 0),
                        new Access(Op.READ, pack, length - WINDOW, WINDOW));
    }

    @Test
    void planningAPackWhoseFooterOutgrowsTheWindowReadsTheFooterInTwoReads() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(4000, 1));
        URI pack = fixtures.sidecar(SET, 1);
        long length = Files.size(fixtures.sidecarPath(SET, 1));
        long footerStart = 16 + 4000;

        layer.plan(layer.resolve(entries.get(3999), fixtures.objectPackSet(SET)));

        assertThat(storage.reads())
                .containsExactly(
                        new Access(Op.READ, pack, length - WINDOW, WINDOW),
                        new Access(Op.READ, pack, footerStart, length - WINDOW - footerStart));
    }

    @Test
    void planningOtherKindsReadsOnlyTheLength() throws IOException {
        BlobDescriptor dedicated = fixtures.writeDedicated(SET, 2, randomBytes(1000, 1));
        BlobDescriptor legacy =
                fixtures.writeLegacyPacked("old-set", 3, payloads(2, 100)).get(1);
        Path external = Files.write(root.resolve("external.bin"), randomBytes(500, 2));

        layer.plan(layer.resolve(dedicated, fixtures.objectPackSet(SET)));
        layer.plan(layer.resolve(legacy, fixtures.legacySet("old-set")));
        layer.plan(
                layer.resolve(BlobDescriptor.external(external.toUri().toString(), 0, 0), ResolveContext.noBlobSet()));

        assertThat(storage.log())
                .extracting(Access::op)
                .containsExactly(Op.OPEN, Op.LENGTH, Op.OPEN, Op.LENGTH, Op.OPEN, Op.LENGTH);
    }

    @Test
    void readingAPlanReadsOnlyItsOwnRange() throws IOException {
        List<BlobDescriptor> entries = fixtures.writePack(SET, 1, payloads(3, 40_000));
        BlobDescriptor dedicated = fixtures.writeDedicated(SET, 2, randomBytes(1000, 1));
        BlobDescriptor legacy =
                fixtures.writeLegacyPacked("old-set", 3, payloads(2, 100)).get(1);
        List<BlobReadPlan> plans = List.of(
                layer.plan(layer.resolve(entries.get(1), fixtures.objectPackSet(SET))),
                layer.plan(layer.resolve(dedicated, fixtures.objectPackSet(SET))),
                layer.plan(layer.resolve(legacy, fixtures.legacySet("old-set"))));

        for (BlobReadPlan plan : plans) {
            storage.clear();
            layer.read(plan);
            PhysicalRange range = plan.range();
            assertThat(storage.log())
                    .as("reading %s", plan.ref())
                    .containsExactly(
                            new Access(Op.OPEN, range.location(), 0, 0),
                            new Access(Op.READ, range.location(), range.offset(), range.length()));
        }
    }

    @Test
    void aBatchPlansEveryObjectBeforeReadingAnyPayload() throws IOException {
        List<BlobRequest> requests = new ArrayList<>();
        Map<URI, Long> packLengths = new HashMap<>();
        for (long id = 1; id <= 4; id++) {
            for (BlobDescriptor entry : fixtures.writePack(SET, id, payloads(3, 30_000))) {
                requests.add(BlobRequest.of(entry, fixtures.objectPackSet(SET)));
            }
            packLengths.put(fixtures.sidecar(SET, id), Files.size(fixtures.sidecarPath(SET, id)));
        }
        requests.add(
                BlobRequest.of(fixtures.writeDedicated(SET, 5, randomBytes(70_000, 5)), fixtures.objectPackSet(SET)));
        requests.add(BlobRequest.of(
                fixtures.writeLegacyPacked("old-set", 1, payloads(2, 100)).get(0), fixtures.legacySet("old-set")));

        layer.readAll(requests);

        List<Access> log = storage.log();
        int lastPlanning = -1;
        int firstPayload = Integer.MAX_VALUE;
        for (int i = 0; i < log.size(); i++) {
            Access access = log.get(i);
            Long packLength = packLengths.get(access.location());
            boolean footerRead = access.op() == Op.READ && packLength != null && access.end() == packLength;
            if (access.op() == Op.LENGTH || footerRead) {
                lastPlanning = i;
            } else if (access.op() == Op.READ) {
                firstPayload = Math.min(firstPayload, i);
            }
        }
        assertThat(storage.count(Op.LENGTH)).isEqualTo(6);
        assertThat(storage.count(Op.OPEN))
                .as("each object opened once for both phases")
                .isEqualTo(6);
        assertThat(lastPlanning).as("last planning access in %s", log).isLessThan(firstPayload);
    }
}
