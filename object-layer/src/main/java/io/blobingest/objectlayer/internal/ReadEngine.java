package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.PackBackend;
import io.blobingest.objectlayer.ResolveContext;
import io.blobingest.objectlayer.UnsupportedFeatureException;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * The Object Layer's read path, wired together: resolver, planner with its footer cache, range
 * coalescer and batch reader. Thread-safe; owns nothing that needs closing (the executor belongs
 * to the caller).
 */
public final class ReadEngine {

    private final BlobStorage storage;
    private final DescriptorResolver resolver;
    private final ReadPlanner planner;
    private final Overrides overrides;
    private final long maxMergedRange;
    private final int threads;
    private final BatchReader batches;

    /**
     * What the layer's builder sets for every storage, over each storage's {@link ReadTuning}.
     *
     * @param holeLimit null: each storage's
     * @param readsInFlight null: each storage's
     */
    public record Overrides(Long holeLimit, Integer readsInFlight) {}

    /**
     * @param extraBackends pack backends besides Raw Pack v1, which is always known
     * @param maxMergedRange the longest read; a storage's hole limit is held below it
     * @param footerCacheSize how many parsed footers to keep; 0 keeps none
     * @param threads the executor's threads: no storage gets more reads in flight
     */
    public ReadEngine(
            BlobStorage storage,
            Set<String> supportedFeatures,
            List<PackBackend> extraBackends,
            Overrides overrides,
            long maxMergedRange,
            int footerCacheSize,
            ExecutorService executor,
            int threads) {
        List<PackBackend> backends = new ArrayList<>();
        backends.add(new RawPackBackend(supportedFeatures));
        backends.addAll(extraBackends);
        this.storage = storage;
        this.resolver = new DescriptorResolver(supportedFeatures);
        this.planner = new ReadPlanner(new PackIndexLoader(
                new PackBackendRegistry(backends), supportedFeatures, new FooterCache(footerCacheSize)));
        this.overrides = overrides;
        this.maxMergedRange = maxMergedRange;
        this.threads = threads;
        this.batches = new BatchReader(resolver, planner, this::tuning, this::coalescer, storage, executor);
    }

    /** How the object at {@code location} is read: its storage's tuning, with the builder's overrides. */
    public ReadTuning tuning(URI location) {
        ReadTuning tuning = storage.readTuning(location);
        if (overrides.holeLimit() != null) {
            tuning = tuning.withHoleLimit(overrides.holeLimit());
        }
        if (overrides.readsInFlight() != null) {
            tuning = tuning.withReadsInFlight(overrides.readsInFlight());
        }
        if (tuning.holeLimit() >= maxMergedRange) {
            tuning = tuning.withHoleLimit(maxMergedRange - 1);
        }
        return tuning.withReadsInFlight(Math.min(tuning.readsInFlight(), threads));
    }

    private RangeCoalescer coalescer(ReadTuning tuning) {
        return new RangeCoalescer(tuning.holeLimit(), maxMergedRange);
    }

    public BlobObjectRef resolve(BlobDescriptor descriptor, ResolveContext context) throws UnsupportedFeatureException {
        return resolver.resolve(descriptor, context);
    }

    public BlobReadPlan plan(BlobObjectRef ref) throws IOException {
        try (ReadableObject object = storage.open(ref.location())) {
            return planner.plan(List.of(ref), ref.location(), object).get(0);
        }
    }

    public byte[] read(BlobReadPlan plan) throws IOException {
        ByteSpan span = new ByteSpan(plan.range().offset(), plan.range().length());
        if (span.length() == 0) {
            return new byte[0];
        }
        try (ReadableObject object = storage.open(plan.range().location())) {
            return RangeFetcher.fetch(
                            object, coalescer(tuning(plan.range().location())).schedule(List.of(span)))
                    .get(span);
        }
    }

    public byte[] decode(BlobReadPlan plan, byte[] physical) throws IOException {
        return PayloadDecoding.decode(plan, physical);
    }

    public List<byte[]> readAll(List<BlobRequest> requests) throws IOException {
        return batches.readAll(requests);
    }
}
