package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobReadPlan;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
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
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Reads a batch of blobs in two phases. Phase one plans every object (metadata only: lengths and
 * footers); phase two starts only when every plan is complete, and reads each object's payload
 * with coalesced reads. Objects are handled concurrently within each phase, each opened once for
 * both phases. How each object is read comes from its storage's {@link ReadTuning}: its hole
 * limit, how many reads are in flight at once (the batch keeps the most any of its objects asks
 * for), and whether one object's reads run one after the other, in the task that reads the object,
 * or each in a task of its own.
 */
final class BatchReader {

    private final DescriptorResolver resolver;
    private final ReadPlanner planner;
    private final Function<URI, ReadTuning> tunings;
    private final Function<ReadTuning, RangeCoalescer> coalescers;
    private final BlobStorage storage;
    private final ExecutorService executor;

    BatchReader(
            DescriptorResolver resolver,
            ReadPlanner planner,
            Function<URI, ReadTuning> tunings,
            Function<ReadTuning, RangeCoalescer> coalescers,
            BlobStorage storage,
            ExecutorService executor) {
        this.resolver = resolver;
        this.planner = planner;
        this.tunings = tunings;
        this.coalescers = coalescers;
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
        int inFlight = batches.stream()
                .mapToInt(batch -> batch.tuning.readsInFlight())
                .max()
                .orElse(1);
        try {
            runEach(batches, ObjectBatch::plan, inFlight);
            List<RangeFetcher.IoTask> reads = new ArrayList<>();
            for (ObjectBatch batch : batches) {
                reads.add(() -> batch.readInto(results, tasks -> run(tasks, inFlight)));
            }
            run(reads, inFlight);
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

    private void runEach(Collection<ObjectBatch> batches, Step step, int inFlight) throws IOException {
        List<RangeFetcher.IoTask> tasks = new ArrayList<>(batches.size());
        for (ObjectBatch batch : batches) {
            tasks.add(() -> step.run(batch));
        }
        run(tasks, inFlight);
    }

    /**
     * Runs every task, at most {@code inFlight} at once: this thread and up to {@code inFlight - 1}
     * workers on the executor take tasks from one queue; returns when all have ended. A task may
     * itself run tasks this way (an object's reads, from the task that reads the object). Once the
     * queue is empty a worker the executor has not started yet has nothing left to do and is
     * claimed by this thread, so that it never starts; this thread only ever waits for workers
     * that are running, so a full pool cannot deadlock.
     */
    private void run(List<RangeFetcher.IoTask> tasks, int inFlight) throws IOException {
        if (tasks.size() == 1) {
            tasks.get(0).run();
            return;
        }
        Queue<RangeFetcher.IoTask> queue = new ConcurrentLinkedQueue<>(tasks);
        Callable<Void> worker = () -> {
            for (RangeFetcher.IoTask task = queue.poll(); task != null; task = queue.poll()) {
                try {
                    task.run();
                } catch (IOException | RuntimeException | Error e) {
                    queue.clear();
                    throw e;
                }
            }
            return null;
        };
        List<Worker> workers = new ArrayList<>();
        for (int i = 1; i < Math.min(inFlight, tasks.size()); i++) {
            Worker helper = new Worker();
            helper.future = executor.submit(() -> helper.claim() ? worker.call() : null);
            workers.add(helper);
        }
        Throwable failure = null;
        try {
            worker.call();
        } catch (Exception | Error e) {
            failure = e;
        }
        for (Worker helper : workers) {
            if (helper.claim()) {
                continue; // never started, and now never will: the queue is empty
            }
            try {
                helper.future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                queue.clear();
                throw new InterruptedIOException("interrupted while reading " + tasks.size() + " parts of a batch");
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause();
                } else {
                    failure.addSuppressed(e.getCause());
                }
            }
        }
        if (failure != null) {
            throw asIoException(failure);
        }
    }

    /** A worker on the executor, which runs only if it is claimed before the caller claims it. */
    private static final class Worker {
        private final AtomicBoolean claimed = new AtomicBoolean();
        Future<Void> future;

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }
    }

    /** An IOException as it is; an unchecked failure is rethrown as it is. */
    private static IOException asIoException(Throwable failure) {
        if (failure instanceof IOException io) {
            return io;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new IOException(failure);
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
        private final ReadTuning tuning;
        private ReadableObject object;

        ObjectBatch(URI location) {
            this.location = location;
            this.tuning = tunings.apply(location);
        }

        void add(int requestIndex, BlobObjectRef ref) {
            requestIndexes.add(requestIndex);
            refs.add(ref);
        }

        void plan() throws IOException {
            object = storage.open(location);
            plans.addAll(planner.plan(refs, location, object));
        }

        void readInto(byte[][] results, RangeFetcher.ReadRunner runner) throws IOException {
            List<ByteSpan> spans = plans.stream()
                    .map(plan ->
                            new ByteSpan(plan.range().offset(), plan.range().length()))
                    .toList();
            ReadSchedule schedule = coalescers.apply(tuning).schedule(spans);
            Map<ByteSpan, byte[]> bytes = tuning.parallelWithinObject()
                    ? RangeFetcher.fetchEachReadApart(object, schedule, runner)
                    : RangeFetcher.fetch(object, schedule);
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
