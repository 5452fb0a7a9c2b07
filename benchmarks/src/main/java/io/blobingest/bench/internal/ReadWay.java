package io.blobingest.bench.internal;

import io.blobingest.bench.ReadFigures;
import io.blobingest.bench.internal.ReadSample.Sampled;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One way of reading a sample, measured in rounds that alternate with the other ways, so that a
 * change in the machine's load falls on every way alike. Only the reads are timed; each blob read
 * is checked against its descriptor's crc32c after its chunk.
 */
final class ReadWay {

    /** Reads a chunk of the sample one way, returning the blobs in the chunk's order. */
    interface ChunkReader {
        List<byte[]> read(List<Sampled> chunk) throws IOException;
    }

    private final LongSupplier requests;
    private final ChunkReader reader;
    private final long[] times;
    private long roundRequests = -1;
    private long verifiedInRound;

    /**
     * @param requests I/O requests made since it was last asked
     * @param timedRounds how many timed rounds the median is taken of
     */
    ReadWay(LongSupplier requests, ChunkReader reader, int timedRounds) {
        this.requests = requests;
        this.reader = reader;
        this.times = new long[timedRounds];
    }

    /** @return the time spent reading; the blobs verified are counted */
    long round(List<List<Sampled>> chunks) throws IOException {
        long nanos = 0;
        verifiedInRound = 0;
        for (List<Sampled> chunk : chunks) {
            long started = System.nanoTime();
            List<byte[]> blobs = reader.read(chunk);
            nanos += System.nanoTime() - started;
            verifiedInRound += ReadSample.verify(chunk, blobs);
        }
        return nanos;
    }

    /** @return the blobs verified in this round */
    long timedRound(List<List<Sampled>> chunks, int round) throws IOException {
        requests.getAsLong();
        times[round] = round(chunks);
        long counted = requests.getAsLong();
        if (roundRequests >= 0 && counted != roundRequests) {
            throw new IllegalStateException("round " + round + " made " + counted + " I/O requests, the round before "
                    + roundRequests + ": the rounds do not read the same way");
        }
        roundRequests = counted;
        return verifiedInRound;
    }

    ReadFigures.Way median() {
        long[] sorted = times.clone();
        Arrays.sort(sorted);
        return new ReadFigures.Way(Duration.ofNanos(sorted[times.length / 2]), roundRequests);
    }
}
