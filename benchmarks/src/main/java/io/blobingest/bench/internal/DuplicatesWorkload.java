package io.blobingest.bench.internal;

import io.blobingest.placement.BlobHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Frames-sized blobs (random bytes, more than 64 KiB so that none is Inline, at most 1 MiB) of which {@link
 * #DUPLICATE_FRACTION} of the records are exact duplicates of an earlier record's blob, in equal parts:
 *
 * <ul>
 *   <li>re-sent records: an earlier record's key and value produced again, to the same partition (a producer's retry,
 *       an application sending again), one of the last {@link #RESEND_WINDOW} on that partition;
 *   <li>a hot set of a few identical blobs (a calibration frame, a blank frame) sent again and again on every
 *       partition;
 *   <li>repeated External files: an earlier External record's file named again with {@code blob.mode=ingest}, on any
 *       partition.
 * </ul>
 *
 * <p>The other records are new blobs: in their record value, or (a {@link #NEW_FILE_FRACTION} of all records) in a
 * file of {@link #externalDirectory()} named by an ingest-mode External record, whose value is empty. Record {@code i}
 * goes to partition {@code i % partitions}. The plan (which record repeats which) is drawn once from the seed; every
 * blob's bytes are a pure function of the seed and what the blob is.
 */
public final class DuplicatesWorkload implements TopicWorkload {

    public static final double DUPLICATE_FRACTION = 0.3;
    /** Records that name a file no earlier record named. */
    static final double NEW_FILE_FRACTION = 0.1;
    /** The most distinct blobs of the hot set. */
    static final int MAX_HOT_BLOBS = 16;
    /** A re-sent record repeats one of this many latest new-value records of its partition. */
    static final int RESEND_WINDOW = 32;

    static final int MIN_BYTES = 64 * 1024 + 1;
    static final int MAX_BYTES = 1024 * 1024;

    /** What a record carries. */
    enum Kind {
        /** A new blob in the record value. */
        VALUE,
        /** An earlier {@link #VALUE} record again: same key, same value, same partition. */
        RESEND,
        /** A blob of the hot set, in the record value; the first record of each hot blob is its first copy. */
        HOT,
        /** An External record naming a file no earlier record named. */
        NEW_FILE,
        /** An External record naming the file of an earlier {@link #NEW_FILE} record. */
        FILE_AGAIN
    }

    /** Streams of the random generator, so that sizes and bytes of values, hot blobs and files never coincide. */
    private static final int VALUE_SIZE = 0;

    private static final int VALUE_BYTES = 1;
    private static final int HOT_SIZE = 2;
    private static final int HOT_BYTES = 3;
    private static final int FILE_SIZE = 4;
    private static final int FILE_BYTES = 5;

    private final long seed;
    private final int partitions;
    private final Path externalDirectory;
    private final Kind[] kinds;
    /**
     * Per record, which blob it carries: its own index ({@link Kind#VALUE}), the re-sent record's index, the hot blob's
     * number, or the file's number.
     */
    private final int[] blobs;
    /** Per record, whether no earlier record carried its blob. */
    private final boolean[] firstCopies;

    private final int hotBlobs;
    private final int files;

    /**
     * @param partitions of the topic the records go to: a re-sent record goes to its original's partition
     * @param externalDirectory absolute; where {@link #writeFiles()} puts the files External records name
     */
    public DuplicatesWorkload(long seed, int partitions, int count, Path externalDirectory) {
        if (partitions < 1 || count < 1) {
            throw new IllegalArgumentException(
                    "need at least one partition and one record, found " + partitions + " and " + count);
        }
        if (!externalDirectory.isAbsolute()) {
            throw new IllegalArgumentException("the external directory must be absolute, found " + externalDirectory);
        }
        this.seed = seed;
        this.partitions = partitions;
        this.externalDirectory = externalDirectory;
        int duplicates = (int) Math.round(count * DUPLICATE_FRACTION);
        int resends = duplicates / 3;
        int hotRepeats = duplicates / 3;
        int fileRepeats = duplicates - resends - hotRepeats;
        this.hotBlobs = Math.max(1, Math.min(MAX_HOT_BLOBS, hotRepeats / 8));
        int newFiles = (int) Math.round(count * NEW_FILE_FRACTION);
        int values = count - duplicates - hotBlobs - newFiles;
        if (values < 1) {
            throw new IllegalArgumentException("too few records for this workload's mix: " + count);
        }
        List<Kind> planned = new ArrayList<>(count);
        planned.addAll(Collections.nCopies(values, Kind.VALUE));
        planned.addAll(Collections.nCopies(resends, Kind.RESEND));
        planned.addAll(Collections.nCopies(hotRepeats + hotBlobs, Kind.HOT));
        planned.addAll(Collections.nCopies(newFiles, Kind.NEW_FILE));
        planned.addAll(Collections.nCopies(fileRepeats, Kind.FILE_AGAIN));
        Random random = new Random(seed);
        Collections.shuffle(planned, random);
        this.kinds = new Kind[count];
        this.blobs = new int[count];
        this.firstCopies = new boolean[count];
        this.files = assign(planned, random);
    }

    /**
     * As many records as make about {@code totalBytes} of blobs on average (record values and External files), at
     * least enough for the mix.
     */
    public static DuplicatesWorkload ofTotalBytes(long seed, int partitions, long totalBytes, Path externalDirectory) {
        double average = (MIN_BYTES + (double) MAX_BYTES) / 2;
        int count = (int) Math.max(10, Math.min(Integer.MAX_VALUE, Math.round(totalBytes / average)));
        return new DuplicatesWorkload(seed, partitions, count, externalDirectory);
    }

    /**
     * Fills {@link #kinds}, {@link #blobs} and {@link #firstCopies} in record order. A repeat that has nothing to
     * repeat yet (a re-send before its partition's first new value, a file named again before any file) becomes a new
     * blob, and the next new blob of that kind that can be a repeat is one instead: the counts stay as planned.
     *
     * @return how many files External records name
     */
    private int assign(List<Kind> planned, Random random) {
        List<List<Integer>> recentValues = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            recentValues.add(new ArrayList<>());
        }
        int owedResends = 0;
        int owedFileRepeats = 0;
        int hotSent = 0;
        int newFiles = 0;
        for (int i = 0; i < planned.size(); i++) {
            List<Integer> recent = recentValues.get(i % partitions);
            Kind kind = planned.get(i);
            if (kind == Kind.RESEND && recent.isEmpty()) {
                kind = Kind.VALUE;
                owedResends++;
            } else if (kind == Kind.VALUE && owedResends > 0 && !recent.isEmpty()) {
                kind = Kind.RESEND;
                owedResends--;
            } else if (kind == Kind.FILE_AGAIN && newFiles == 0) {
                kind = Kind.NEW_FILE;
                owedFileRepeats++;
            } else if (kind == Kind.NEW_FILE && owedFileRepeats > 0 && newFiles > 0) {
                kind = Kind.FILE_AGAIN;
                owedFileRepeats--;
            }
            kinds[i] = kind;
            // Every hot blob is sent once before any is sent again.
            firstCopies[i] = kind == Kind.VALUE || kind == Kind.NEW_FILE || (kind == Kind.HOT && hotSent < hotBlobs);
            blobs[i] = switch (kind) {
                case VALUE -> {
                    recent.add(i);
                    if (recent.size() > RESEND_WINDOW) {
                        recent.remove(0);
                    }
                    yield i;
                }
                case RESEND -> recent.get(random.nextInt(recent.size()));
                case HOT -> hotSent < hotBlobs ? hotSent++ : random.nextInt(hotBlobs);
                case NEW_FILE -> newFiles++;
                case FILE_AGAIN -> random.nextInt(newFiles);
            };
        }
        return newFiles;
    }

    @Override
    public int count() {
        return kinds.length;
    }

    public Path externalDirectory() {
        return externalDirectory;
    }

    /** The prefix to allow with {@code external.allowed-prefixes}: the external directory's URI. */
    public String externalPrefix() {
        String uri = externalDirectory.toUri().toString();
        return uri.endsWith("/") ? uri : uri + "/";
    }

    /** Writes every file the External records name into the external directory. */
    public void writeFiles() throws IOException {
        Files.createDirectories(externalDirectory);
        for (int file = 0; file < files; file++) {
            Files.write(file(file), bytes(FILE_SIZE, FILE_BYTES, file));
        }
    }

    Kind kind(int index) {
        return kinds[index];
    }

    /** The bytes of record {@code index}'s blob, wherever they travel (record value or file). */
    public byte[] blob(int index) {
        return switch (kinds[index]) {
            case VALUE, RESEND -> bytes(VALUE_SIZE, VALUE_BYTES, blobs[index]);
            case HOT -> bytes(HOT_SIZE, HOT_BYTES, blobs[index]);
            case NEW_FILE, FILE_AGAIN -> bytes(FILE_SIZE, FILE_BYTES, blobs[index]);
        };
    }

    /** Bytes of every record's blob: what a sink stores without sharing. */
    public long blobBytes() {
        long bytes = 0;
        for (int i = 0; i < kinds.length; i++) {
            bytes += size(i);
        }
        return bytes;
    }

    /** Bytes of the blobs the record values carry; the rest are in External files. */
    public long valueBytes() {
        long bytes = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (!isExternal(kinds[i])) {
                bytes += size(i);
            }
        }
        return bytes;
    }

    /** Bytes of the distinct blobs: what a sink that stores every content once stores. */
    public long uniqueBytes() {
        long bytes = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (firstCopies[i]) {
                bytes += size(i);
            }
        }
        return bytes;
    }

    /** Records whose blob an earlier record carried already. */
    public int duplicates() {
        int duplicates = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (!firstCopies[i]) {
                duplicates++;
            }
        }
        return duplicates;
    }

    /** Files the External records name. */
    public int files() {
        return files;
    }

    /** External records: those naming a file, new or again. */
    public int externalRecords() {
        int external = 0;
        for (Kind kind : kinds) {
            if (isExternal(kind)) {
                external++;
            }
        }
        return external;
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(String topic, int partitions, int index) {
        if (partitions != this.partitions) {
            throw new IllegalArgumentException("this workload was planned for " + this.partitions
                    + " partitions (re-sent records keep their partition), asked for " + partitions);
        }
        return switch (kinds[index]) {
            case VALUE, RESEND ->
                new ProducerRecord<>(topic, index % partitions, utf8("blob-" + blobs[index]), blob(index));
            case HOT ->
                new ProducerRecord<>(topic, index % partitions, utf8("hot-" + blobs[index] + "-" + index), blob(index));
            case NEW_FILE, FILE_AGAIN -> {
                ProducerRecord<byte[], byte[]> external = new ProducerRecord<>(
                        topic, index % partitions, utf8("file-" + blobs[index] + "-" + index), new byte[0]);
                external.headers()
                        .add(new RecordHeader(
                                BlobHeaders.URI, utf8(file(blobs[index]).toUri().toString())));
                external.headers().add(new RecordHeader(BlobHeaders.MODE, utf8(BlobHeaders.MODE_INGEST)));
                yield external;
            }
        };
    }

    private int size(int index) {
        return switch (kinds[index]) {
            case VALUE, RESEND -> size(VALUE_SIZE, blobs[index]);
            case HOT -> size(HOT_SIZE, blobs[index]);
            case NEW_FILE, FILE_AGAIN -> size(FILE_SIZE, blobs[index]);
        };
    }

    private Path file(int file) {
        return externalDirectory.resolve("file-" + file + ".bin");
    }

    private int size(int sizeStream, int blob) {
        return MIN_BYTES + random(sizeStream, blob).nextInt(MAX_BYTES - MIN_BYTES + 1);
    }

    private byte[] bytes(int sizeStream, int bytesStream, int blob) {
        byte[] bytes = new byte[size(sizeStream, blob)];
        random(bytesStream, blob).nextBytes(bytes);
        return bytes;
    }

    private SplittableRandom random(int stream, int blob) {
        return new SplittableRandom((seed * 0x9E3779B97F4A7C15L) ^ ((long) blob << 8 | stream));
    }

    private static boolean isExternal(Kind kind) {
        return kind == Kind.NEW_FILE || kind == Kind.FILE_AGAIN;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
