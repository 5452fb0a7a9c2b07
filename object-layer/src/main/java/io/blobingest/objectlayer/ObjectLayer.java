package io.blobingest.objectlayer;

import io.blobingest.objectlayer.internal.ReadEngine;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads blobs back from their descriptors (spec.md section 1):
 *
 * <pre>
 * resolve(descriptor, context) -> BlobObjectRef     reads nothing
 * plan(ref)                    -> BlobReadPlan      reads metadata only: a pack footer, a file length
 * read(plan)                   -> physical bytes
 * decode(plan, physical bytes) -> logical bytes     checks the payload crc32c of pack entries
 * </pre>
 *
 * {@link #readAll} does all four for a batch, coalescing reads and reading several objects at once.
 * See {@code docs/object-layer.md}.
 *
 * <p>Thread-safe. Owns a thread pool: {@link #close()} it.
 */
public final class ObjectLayer implements Closeable {

    /** The hole limit on local disk ({@link ReadTuning#LOCAL}); each storage names its own. */
    public static final long DEFAULT_HOLE_LIMIT = ReadTuning.LOCAL.holeLimit();

    public static final long DEFAULT_MAX_MERGED_RANGE = 16 * 1024 * 1024;
    /** Reads in flight on local disk ({@link ReadTuning#LOCAL}); each storage names its own. */
    public static final int DEFAULT_CONCURRENCY = ReadTuning.LOCAL.readsInFlight();

    public static final int DEFAULT_FOOTER_CACHE_SIZE = 1024;

    private static final long CLOSE_GRACE_SECONDS = 10;
    /** The most reads in flight any storage's tuning asks for: the reader threads' count. */
    private static final int MAX_STORAGE_READS_IN_FLIGHT = ReadTuning.OBJECT_STORE.readsInFlight();

    private final Set<String> supportedFeatures;
    private final ExecutorService executor;
    private final ReadEngine engine;

    private ObjectLayer(Builder builder) {
        this.supportedFeatures = Set.copyOf(builder.supportedFeatures);
        // Threads are started as reads need them: a batch on local disk never starts more than its
        // storage's reads in flight.
        int threads = builder.concurrency != null ? builder.concurrency : MAX_STORAGE_READS_IN_FLIGHT;
        this.executor = Executors.newFixedThreadPool(threads, new ReaderThreads());
        try {
            this.engine = new ReadEngine(
                    builder.storage,
                    supportedFeatures,
                    List.copyOf(builder.packBackends),
                    new ReadEngine.Overrides(builder.holeLimit, builder.concurrency),
                    builder.maxMergedRange,
                    builder.footerCacheSize,
                    executor,
                    threads);
        } catch (RuntimeException e) {
            executor.shutdownNow();
            throw e;
        }
    }

    public static Builder builder(BlobStorage storage) {
        return new Builder(storage);
    }

    /** The reader features this layer was built with. */
    public Set<String> supportedFeatures() {
        return supportedFeatures;
    }

    /**
     * Names the object a descriptor points at. Reads nothing.
     *
     * @throws UnsupportedFeatureException if the context's blob set requires a feature this reader
     *     lacks, or the descriptor is object-backed and this reader lacks {@code blob_object_pack}
     * @throws IllegalArgumentException if the descriptor is Inline (its bytes are not in storage) or
     *     does not fit the context (no blob set for a sidecar; a legacy byte offset in a blob set
     *     that requires {@code blob_object_pack}; an External URI that is opaque or carries
     *     userinfo). An External URI of any scheme resolves; reading it fails if the storage cannot
     *     open that scheme
     */
    public BlobObjectRef resolve(BlobDescriptor descriptor, ResolveContext context) throws UnsupportedFeatureException {
        return engine.resolve(descriptor, context);
    }

    /**
     * Plans reading {@code ref} from metadata alone: a pack entry's plan comes from the pack's
     * footer (cached), every other plan from the object's length.
     *
     * @throws DescriptorMismatchException if the object contradicts the reference (size, range, entry)
     * @throws io.blobingest.objectlayer.pack.PackFormatException if a pack's footer is corrupt or of
     *     a type, version or required feature this reader does not know
     */
    public BlobReadPlan plan(BlobObjectRef ref) throws IOException {
        return engine.plan(ref);
    }

    /**
     * How batches read the object at {@code location}: its storage's {@link ReadTuning} with
     * this builder's hole limit and concurrency, where set, over it.
     */
    public ReadTuning readTuning(URI location) {
        return engine.tuning(location);
    }

    /** Reads the plan's range, in reads of at most the max merged range each. */
    public byte[] read(BlobReadPlan plan) throws IOException {
        return engine.read(plan);
    }

    /**
     * The blob's logical bytes from the plan's physical bytes.
     *
     * @throws io.blobingest.objectlayer.pack.CorruptPackException if a pack entry's crc32c differs,
     *     naming the file and the entry's offset
     */
    public byte[] decode(BlobReadPlan plan, byte[] physical) throws IOException {
        return engine.decode(plan, physical);
    }

    /**
     * Reads a batch: Inline requests return their {@code inline_data} as is; the rest are planned
     * (all of them) before any payload is read, then read with coalesced ranges, several objects
     * at once. Fails as a whole if any request fails.
     *
     * @return the blobs' bytes in the order of {@code requests}, each in an array of its own
     */
    public List<byte[]> readAll(List<BlobRequest> requests) throws IOException {
        checkOpen();
        return engine.readAll(requests);
    }

    /** Stops the reader threads, waiting a little for batches in progress. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_GRACE_SECONDS, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void checkOpen() {
        if (executor.isShutdown()) {
            throw new IllegalStateException("the object layer is closed");
        }
    }

    private static final class ReaderThreads implements ThreadFactory {
        private static final AtomicInteger LAYERS = new AtomicInteger();
        private final int layer = LAYERS.incrementAndGet();
        private final AtomicInteger threads = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "object-layer-" + layer + "-reader-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }

    /** Configures an {@link ObjectLayer}; every setting but the storage has a default. */
    public static final class Builder {
        private final BlobStorage storage;
        private Set<String> supportedFeatures = BlobFeatures.ALL;
        private Long holeLimit;
        private long maxMergedRange = DEFAULT_MAX_MERGED_RANGE;
        private Integer concurrency;
        private int footerCacheSize = DEFAULT_FOOTER_CACHE_SIZE;
        private final List<PackBackend> packBackends = new ArrayList<>();

        private Builder(BlobStorage storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
        }

        /**
         * The features this reader supports, a subset of {@link BlobFeatures#ALL} (the default).
         * An empty set builds a legacy-only reader, which refuses object-backed packs.
         */
        public Builder supportedFeatures(Set<String> features) {
            Set<String> unknown = new HashSet<>(features);
            unknown.removeAll(BlobFeatures.ALL);
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("cannot support features this build does not implement: " + unknown
                        + " (it implements " + BlobFeatures.ALL + ")");
            }
            this.supportedFeatures = Set.copyOf(features);
            return this;
        }

        /**
         * Unwanted bytes between two wanted ranges that are read rather than paying another
         * request, for every storage. Unset, each object gets its storage's ({@link
         * BlobStorage#readTuning}: 8 KiB on local disk, 256 KiB on an object store).
         */
        public Builder holeLimit(long bytes) {
            this.holeLimit = bytes;
            return this;
        }

        /**
         * The longest single read; longer merged spans are cut into several reads. A storage's
         * hole limit is held below it.
         */
        public Builder maxMergedRange(long bytes) {
            this.maxMergedRange = bytes;
            return this;
        }

        /**
         * How many reads a batch keeps in flight at once, for every storage, and the reader
         * threads. Unset, each storage's ({@link BlobStorage#readTuning}: 8 on local disk, one
         * object after the other; 64 on an object store, parts of one object at once).
         */
        public Builder concurrency(int threads) {
            this.concurrency = threads;
            return this;
        }

        /** How many parsed pack footers to keep (least recently used go first); 0 caches none. */
        public Builder footerCacheSize(int footers) {
            this.footerCacheSize = footers;
            return this;
        }

        /** Adds the reader of another pack type or version; Raw Pack v1 is always known. */
        public Builder packBackend(PackBackend backend) {
            packBackends.add(Objects.requireNonNull(backend, "backend"));
            return this;
        }

        public ObjectLayer build() {
            if (holeLimit != null && holeLimit < 0) {
                throw new IllegalArgumentException("hole limit must be >= 0, found " + holeLimit);
            }
            long hole = holeLimit != null ? holeLimit : 0;
            if (maxMergedRange <= hole || maxMergedRange > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("max merged range must exceed the hole limit (" + hole
                        + ") and fit in an array, found " + maxMergedRange);
            }
            if (concurrency != null && concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, found " + concurrency);
            }
            if (footerCacheSize < 0) {
                throw new IllegalArgumentException("footer cache size must be >= 0, found " + footerCacheSize);
            }
            return new ObjectLayer(this);
        }
    }
}
