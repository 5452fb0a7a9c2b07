package io.blobingest.objectlayer.storage;

/**
 * How a batch read should treat one storage's objects: what a request costs there decides how far
 * reads are merged and how many are kept in flight. A storage names its tuning per location
 * ({@link BlobStorage#readTuning}); the Object Layer's builder can override each part.
 *
 * @param holeLimit unwanted bytes between two wanted ranges that one read still spans
 * @param readsInFlight reads a batch keeps in flight at once (objects planned at once, too)
 * @param parallelWithinObject whether one object's reads may be in flight together, each from a
 *     stream of its own, or run one after the other
 */
public record ReadTuning(long holeLimit, int readsInFlight, boolean parallelWithinObject) {

    /**
     * Local disk and the page cache: a request costs microseconds, so few bytes of hole are worth
     * reading, and an object's reads run one after the other. Reading parts of one object at once
     * was measured slower here (docs/benchmarks.md, "Tried and dropped"): the reads are memory
     * copies and two cores copy no faster in parallel.
     */
    public static final ReadTuning LOCAL = new ReadTuning(8 * 1024, 8, false);

    /**
     * An object store (S3): a GET waits tens of milliseconds for its first byte, so requests are
     * kept in flight by the dozen, parts of one object included (64, as Lance's cloud I/O
     * parallelism), and a hole is read rather than paying another request when it costs less
     * transfer time than a request's share of the latency (docs/benchmarks.md, "Reads over S3").
     */
    public static final ReadTuning OBJECT_STORE = new ReadTuning(256 * 1024, 64, true);

    public ReadTuning {
        if (holeLimit < 0) {
            throw new IllegalArgumentException("hole limit must be >= 0, found " + holeLimit);
        }
        if (readsInFlight < 1) {
            throw new IllegalArgumentException("reads in flight must be >= 1, found " + readsInFlight);
        }
    }

    public ReadTuning withHoleLimit(long bytes) {
        return new ReadTuning(bytes, readsInFlight, parallelWithinObject);
    }

    public ReadTuning withReadsInFlight(int reads) {
        return new ReadTuning(holeLimit, reads, parallelWithinObject);
    }
}
