package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Reads a batch of blobs in two phases. Phase one plans every object (metadata only: lengths and
 * footers); phase two starts only when every plan is complete, and reads each object's payload
 * with coalesced reads. Objects are handled concurrently within each phase, each object by one
 * task, opened once for both phases.
 */
final class BatchReader {

    private final DescriptorResolver resolver;
    private final ReadPlanner planner;
    private final RangeCoalescer coalescer;
    private final BlobStorage storage;
    private final ExecutorService executor;

    BatchReader(
            DescriptorResolver resolver,
            ReadPlanner planner,
            RangeCoalescer coalescer,
            BlobStorage storage,
            ExecutorService executor) {
        this.resolver = resolver;
        this.planner = planner;
        this.coalescer = coalescer;
        this.storage = storage;
        this.executor = executor;
    }

    List<byte[]> readAll(List<BlobRequest> requests) throws IOException {
        byte[][] results = new byte[requests.size()][];
        Map<URI, ObjectBatch> byObject = new LinkedHashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            BlobRequest request = requests.get(i);
            if (request.inlineData() != null) {
                resolver.checkFeatures(request.context());
                results[i] = request.inlineData();
                continue;
            }
            BlobObjectRef ref = resolver.resolve(request.descriptor(), request.context());
            byObject.computeIfAbsent(ref.location(), ObjectBatch::new).add(i, ref);
        }
        Collection<ObjectBatch> batches = byObject.values();
        try {
            runEach(batches, ObjectBatch::plan);
            runEach(batches, batch -> batch.readInto(results));
        } catch (IOException | RuntimeException | Error e) {
            closeAll(batches, e);
            throw e;
        }
        closeAll(batches, null);
        return List.of(results);
    }

    @FunctionalInterface
    private interface Step {
        void run(ObjectBatch batch) throws IOException;
    }

    /** Runs {@code step} for every batch on the executor and returns when all have ended. */
    private void runEach(Collection<ObjectBatch> batches, Step step) throws IOException {
        List<Callable<Void>> tasks = new ArrayList<>(batches.size());
        for (ObjectBatch batch : batches) {
            tasks.add(() -> {
                step.run(batch);
                return null;
            });
        }
        List<Future<Void>> done;
        try {
            done = executor.invokeAll(tasks);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + batches.size() + " objects");
        }
        IOException failure = null;
        for (Future<Void> future : done) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading " + batches.size() + " objects");
            } catch (ExecutionException e) {
                IOException cause = unwrap(e);
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The task's IOException; an unchecked cause is rethrown as it is. */
    private static IOException unwrap(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException(cause);
    }

    /**
     * Closes every opened object. Close failures are added to {@code primary} when the batch
     * already failed, thrown otherwise.
     */
    private static void closeAll(Collection<ObjectBatch> batches, Throwable primary) throws IOException {
        IOException failure = null;
        for (ObjectBatch batch : batches) {
            try {
                batch.close();
            } catch (IOException e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The requests that read one object. */
    private final class ObjectBatch {
        private final URI location;
        private final List<Integer> requestIndexes = new ArrayList<>();
        private final List<BlobObjectRef> refs = new ArrayList<>();
        private final List<BlobReadPlan> plans = new ArrayList<>();
        private ReadableObject object;

        ObjectBatch(URI location) {
            this.location = location;
        }

        void add(int requestIndex, BlobObjectRef ref) {
            requestIndexes.add(requestIndex);
            refs.add(ref);
        }

        void plan() throws IOException {
            object = storage.open(location);
            plans.addAll(planner.plan(refs, location, object));
        }

        void readInto(byte[][] results) throws IOException {
            List<ByteSpan> spans = plans.stream()
                    .map(plan -> new ByteSpan(plan.range().offset(), plan.range().length()))
                    .toList();
            Map<ByteSpan, byte[]> bytes = RangeFetcher.fetch(object, coalescer.schedule(spans));
            Set<ByteSpan> handedOut = new HashSet<>();
            for (int i = 0; i < plans.size(); i++) {
                ByteSpan span = spans.get(i);
                byte[] physical = span.length() == 0 ? new byte[0] : bytes.get(span);
                // An identical range is read once, but every request gets an array of its own.
                if (!handedOut.add(span)) {
                    physical = physical.clone();
                }
                results[requestIndexes.get(i)] = PayloadDecoding.decode(plans.get(i), physical);
            }
        }

        void close() throws IOException {
            if (object != null) {
                object.close();
            }
        }
    }
}
