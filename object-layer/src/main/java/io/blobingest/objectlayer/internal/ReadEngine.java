package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.PackBackend;
import io.blobingest.objectlayer.ResolveContext;
import io.blobingest.objectlayer.UnsupportedFeatureException;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
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
    private final RangeCoalescer coalescer;
    private final BatchReader batches;

    /**
     * @param extraBackends pack backends besides Raw Pack v1, which is always known
     * @param footerCacheSize how many parsed footers to keep; 0 keeps none
     */
    public ReadEngine(
            BlobStorage storage,
            Set<String> supportedFeatures,
            List<PackBackend> extraBackends,
            long holeLimit,
            long maxMergedRange,
            int footerCacheSize,
            ExecutorService executor) {
        List<PackBackend> backends = new ArrayList<>();
        backends.add(new RawPackBackend(supportedFeatures));
        backends.addAll(extraBackends);
        this.storage = storage;
        this.resolver = new DescriptorResolver(supportedFeatures);
        this.planner = new ReadPlanner(
                new PackIndexLoader(new PackBackendRegistry(backends), supportedFeatures, new FooterCache(footerCacheSize)));
        this.coalescer = new RangeCoalescer(holeLimit, maxMergedRange);
        this.batches = new BatchReader(resolver, planner, coalescer, storage, executor);
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
            return RangeFetcher.fetch(object, coalescer.schedule(List.of(span))).get(span);
        }
    }

    public byte[] decode(BlobReadPlan plan, byte[] physical) throws IOException {
        return PayloadDecoding.decode(plan, physical);
    }

    public List<byte[]> readAll(List<BlobRequest> requests) throws IOException {
        return batches.readAll(requests);
    }
}
