package io.blobingest.bench.internal;

import io.blobingest.bench.S3ReadFigures;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The way Lance's I/O scheduler reads ranges of a file (rust/lance-io/src/scheduler.rs,
 * {@code FileScheduler::submit_request}), as a plain baseline: per file, ranges sorted by offset;
 * a range that starts at most {@link S3ReadFigures#LANCE_BLOCK_SIZE} bytes after the current
 * request's end joins it ({@code is_close_together}); each request is cut into parts of at most
 * {@link S3ReadFigures#LANCE_MAX_IOP_SIZE}; every part is one ranged read into a buffer of its own,
 * sliced into the ranges; {@link S3ReadFigures#LANCE_IO_PARALLELISM} parts in flight at once
 * across the files. No footer is read and no crc32c checked: Lance knows its page offsets from
 * metadata it has read before.
 */
final class LanceStyleReader {

    private final BlobStorage storage;
    private final ExecutorService pool;

    /** @param pool {@link S3ReadFigures#LANCE_IO_PARALLELISM} threads */
    LanceStyleReader(BlobStorage storage, ExecutorService pool) {
        this.storage = storage;
        this.pool = pool;
    }

    /** @param ranges by location, then offset; each range's bytes come back in its own array, in order */
    List<byte[]> read(List<PhysicalRange> ranges) throws IOException {
        byte[][] results = new byte[ranges.size()][];
        Map<URI, List<Integer>> byFile = new LinkedHashMap<>();
        for (int i = 0; i < ranges.size(); i++) {
            byFile.computeIfAbsent(ranges.get(i).location(), location -> new ArrayList<>())
                    .add(i);
            results[i] = new byte[Math.toIntExact(ranges.get(i).length())];
        }
        Map<URI, ReadableObject> files = new LinkedHashMap<>();
        List<Callable<ReadableObject>> opens = new ArrayList<>();
        for (URI location : byFile.keySet()) {
            opens.add(() -> storage.open(location));
        }
        try {
            List<ReadableObject> opened = runAll(opens);
            int next = 0;
            for (URI location : byFile.keySet()) {
                files.put(location, opened.get(next++));
            }
            List<Callable<Void>> parts = new ArrayList<>();
            for (Map.Entry<URI, List<Integer>> file : byFile.entrySet()) {
                ReadableObject object = files.get(file.getKey());
                for (Request request : requests(ranges, file.getValue())) {
                    for (long at = request.start; at < request.end; at += S3ReadFigures.LANCE_MAX_IOP_SIZE) {
                        long start = at;
                        long end = Math.min(request.end, at + S3ReadFigures.LANCE_MAX_IOP_SIZE);
                        parts.add(() -> {
                            readPart(object, start, end, request.members, ranges, results);
                            return null;
                        });
                    }
                }
            }
            runAll(parts);
        } finally {
            for (ReadableObject object : files.values()) {
                object.close();
            }
        }
        return List.of(results);
    }

    /** A merged request: bytes {@code [start, end)} of one file, for the ranges {@code members}. */
    private record Request(long start, long end, List<Integer> members) {}

    private static List<Request> requests(List<PhysicalRange> ranges, List<Integer> indexes) {
        List<Request> requests = new ArrayList<>();
        long start = -1;
        long end = -1;
        List<Integer> members = new ArrayList<>();
        for (int i : indexes) {
            PhysicalRange range = ranges.get(i);
            if (start >= 0 && range.offset() <= end + S3ReadFigures.LANCE_BLOCK_SIZE) {
                end = Math.max(end, range.end());
            } else {
                if (start >= 0) {
                    requests.add(new Request(start, end, members));
                }
                start = range.offset();
                end = range.end();
                members = new ArrayList<>();
            }
            members.add(i);
        }
        if (start >= 0) {
            requests.add(new Request(start, end, members));
        }
        return requests;
    }

    private static void readPart(
            ReadableObject object,
            long start,
            long end,
            List<Integer> members,
            List<PhysicalRange> ranges,
            byte[][] results)
            throws IOException {
        byte[] buffer = new byte[(int) (end - start)];
        object.readFully(start, buffer, 0, buffer.length);
        for (int i : members) {
            PhysicalRange range = ranges.get(i);
            long from = Math.max(start, range.offset());
            long to = Math.min(end, range.end());
            if (from < to) {
                System.arraycopy(
                        buffer, (int) (from - start), results[i], (int) (from - range.offset()), (int) (to - from));
            }
        }
    }

    private <T> List<T> runAll(List<Callable<T>> tasks) throws IOException {
        List<Future<T>> futures;
        try {
            futures = pool.invokeAll(tasks);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading");
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            try {
                results.add(future.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading");
            } catch (ExecutionException e) {
                throw new IOException("a Lance-style read failed: " + e.getCause(), e.getCause());
            }
        }
        return results;
    }
}
