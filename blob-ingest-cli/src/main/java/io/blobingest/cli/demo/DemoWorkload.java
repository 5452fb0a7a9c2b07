package io.blobingest.cli.demo;

import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.configuration.MemorySize;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The demo's synthetic robotics input, a pure function of {@code (seed, index)}: any record's key,
 * headers and bytes can be generated again to check what the job made of it, without keeping the
 * workload in memory.
 *
 * <p>A fleet of four robots sends IMU/telemetry packets (most records), camera frames (every sixth),
 * video segments (every 400th), references to files in an allow-listed directory (every 50th, half
 * of them a byte range), files to ingest (every 100th) and six faulty records among the first 71.
 * Two kinds repeat bytes, for exact sharing: every 45th record is the fleet's calibration image,
 * the same bytes from each robot in turn (other keys, both partitions), and every 70th re-sends the
 * camera frame before it, as an at-least-once producer's retry would (same value, key and
 * partition). Every record carries the headers {@code robot}, {@code stream}, {@code seq} (its
 * index; a re-sent frame's own, so that both copies can be told apart) and {@code captured-at},
 * which the job passes through to its descriptor.
 */
public final class DemoWorkload {

    /** The demo's {@code placement.inline-max-size}: telemetry is Inline, camera frames are not. */
    public static final MemorySize INLINE_MAX_SIZE = MemorySize.parse("16kb");

    /** Smallest workload that holds every kind of record, each faulty one included. */
    public static final int MIN_COUNT = 100;

    /** Header naming the record's index, passed through to descriptors and dead letters. */
    public static final String SEQ_HEADER = "seq";

    static final int KIB = 1024;
    static final int MIB = 1024 * KIB;
    private static final int ROBOTS = 4;
    private static final int FIRST_BAD = 5;
    private static final int BAD_SPACING = 13;
    private static final long TERABYTE = 1L << 40;
    private static final Instant START = Instant.parse("2025-06-01T08:00:00Z");
    /** The calibration image's random streams are those of a record -1, which is never sent. */
    private static final int CALIBRATION = -1;

    private final long seed;
    private final int count;
    private final Path externalDirectory;

    /**
     * @param externalDirectory where the files of External records are (absolute); see {@link
     *     ExternalFiles}
     */
    public DemoWorkload(long seed, int count, Path externalDirectory) {
        if (count < MIN_COUNT) {
            throw new IllegalArgumentException("the demo needs at least " + MIN_COUNT + " records, found " + count);
        }
        if (!externalDirectory.isAbsolute()) {
            throw new IllegalArgumentException("external directory must be absolute, found " + externalDirectory);
        }
        this.seed = seed;
        this.count = count;
        this.externalDirectory = externalDirectory;
    }

    public long seed() {
        return seed;
    }

    public int count() {
        return count;
    }

    public Path externalDirectory() {
        return externalDirectory;
    }

    /** The {@code external.allowed-prefixes} value that allows the external directory and nothing else. */
    public String externalPrefix() {
        String uri = externalDirectory.toUri().toString();
        return uri.endsWith("/") ? uri : uri + "/";
    }

    public DemoRecordKind kind(int index) {
        if (fault(index) != null) {
            return DemoRecordKind.BAD;
        }
        if (index % 400 == 95) {
            return DemoRecordKind.VIDEO_SEGMENT;
        }
        if (index % 100 == 61) {
            return DemoRecordKind.EXTERNAL_INGEST;
        }
        if (index % 50 == 27) {
            return DemoRecordKind.EXTERNAL_REFERENCE;
        }
        if (index % 45 == 23) {
            return DemoRecordKind.CALIBRATION_IMAGE;
        }
        if (index % 70 == 40) {
            return DemoRecordKind.RESENT_FRAME;
        }
        if (index % 6 == 2) {
            return DemoRecordKind.CAMERA_FRAME;
        }
        return DemoRecordKind.TELEMETRY;
    }

    /** The fault of a {@link DemoRecordKind#BAD} record, null for every other record. */
    public BadRecord fault(int index) {
        int offset = index - FIRST_BAD;
        if (offset < 0 || offset % BAD_SPACING != 0 || offset / BAD_SPACING >= BadRecord.values().length) {
            return null;
        }
        return BadRecord.values()[offset / BAD_SPACING];
    }

    /** The descriptor kind the record must get, or null if it must not get one or may get several. */
    public BlobKind expectedKind(int index) {
        return switch (kind(index)) {
            case TELEMETRY -> BlobKind.INLINE;
            case CAMERA_FRAME, RESENT_FRAME, CALIBRATION_IMAGE -> BlobKind.PACKED;
            case VIDEO_SEGMENT -> BlobKind.DEDICATED;
            case EXTERNAL_REFERENCE -> BlobKind.EXTERNAL;
            case EXTERNAL_INGEST, BAD -> null;
        };
    }

    /** Bytes a descriptor of this record must resolve to; {@code size(index)} of them. */
    public byte[] expectedBytes(int index) {
        return switch (kind(index)) {
            case TELEMETRY -> telemetry(index, size(index));
            case CAMERA_FRAME, VIDEO_SEGMENT -> randomBytes(index, size(index));
            case RESENT_FRAME -> expectedBytes(resentFrame(index));
            case CALIBRATION_IMAGE -> randomBytes(CALIBRATION, size(index));
            case EXTERNAL_REFERENCE, EXTERNAL_INGEST -> {
                byte[] file = fileBytes(index);
                ByteRange range = range(index);
                yield range == null
                        ? file
                        : Arrays.copyOfRange(file, (int) range.position(), (int) (range.position() + range.size()));
            }
            case BAD -> throw new IllegalArgumentException("record " + index + " is a bad record, it has no blob");
        };
    }

    /** Logical size of the record's blob (0 for a bad record). */
    public long size(int index) {
        SplittableRandom random = random(index, 0);
        return switch (kind(index)) {
            case TELEMETRY -> 100 + random.nextInt(401);
            case CAMERA_FRAME -> 30 * KIB + random.nextInt(570 * KIB + 1);
            case VIDEO_SEGMENT -> 5 * MIB + random.nextInt(35 * MIB + 1);
            case RESENT_FRAME -> size(resentFrame(index));
            case CALIBRATION_IMAGE -> 200 * KIB + random(CALIBRATION, 0).nextInt(56 * KIB + 1);
            case EXTERNAL_REFERENCE, EXTERNAL_INGEST -> {
                ByteRange range = range(index);
                yield range == null ? fileSize(index) : range.size();
            }
            case BAD -> 0;
        };
    }

    /** True for External records: their bytes are in a file of {@link #externalDirectory()}. */
    public boolean hasFile(int index) {
        DemoRecordKind kind = kind(index);
        return kind == DemoRecordKind.EXTERNAL_REFERENCE || kind == DemoRecordKind.EXTERNAL_INGEST;
    }

    public Path file(int index) {
        requireFile(index);
        String prefix = kind(index) == DemoRecordKind.EXTERNAL_REFERENCE ? "clip-" : "upload-";
        return externalDirectory.resolve(prefix + index + ".bin");
    }

    public byte[] fileBytes(int index) {
        requireFile(index);
        return randomBytes(index, fileSize(index));
    }

    /** The {@code blob.uri} of an External record: an absolute {@code file:} URI. */
    public String uri(int index) {
        return file(index).toUri().toString();
    }

    /**
     * The record as it is sent to partition {@code index % partitions} of {@code topic}; a re-sent
     * frame goes where its first copy went.
     */
    public ProducerRecord<byte[], byte[]> producerRecord(String topic, int partitions, int index) {
        List<Header> headers = new ArrayList<>();
        for (DescriptorRow.Attribute attribute : passedThroughHeaders(index)) {
            headers.add(new RecordHeader(attribute.name(), attribute.value()));
        }
        byte[] value = switch (kind(index)) {
            case TELEMETRY, CAMERA_FRAME, RESENT_FRAME, CALIBRATION_IMAGE, VIDEO_SEGMENT -> expectedBytes(index);
            case EXTERNAL_REFERENCE -> {
                headers.add(header(BlobHeaders.URI, uri(index)));
                headers.add(header(BlobHeaders.MODE, BlobHeaders.MODE_REFERENCE));
                ByteRange range = range(index);
                if (range != null) {
                    headers.add(header(BlobHeaders.POSITION, Long.toString(range.position())));
                    headers.add(header(BlobHeaders.SIZE, Long.toString(range.size())));
                }
                yield new byte[0];
            }
            case EXTERNAL_INGEST -> {
                headers.add(header(BlobHeaders.URI, uri(index)));
                headers.add(header(BlobHeaders.MODE, BlobHeaders.MODE_INGEST));
                yield new byte[0];
            }
            case BAD -> badValue(index, headers);
        };
        return new ProducerRecord<>(topic, sentAs(index) % partitions, key(index), value, headers);
    }

    /** Null for every 97th telemetry packet: a null key must round-trip too. A re-sent frame has its first copy's. */
    public byte[] key(int index) {
        if (kind(index) == DemoRecordKind.TELEMETRY && index % 97 == 1) {
            return null;
        }
        int sent = sentAs(index);
        return (robot(sent) + "/" + stream(sent) + "/" + sent).getBytes(StandardCharsets.UTF_8);
    }

    /** The headers a descriptor of this record must carry, in order; a re-sent frame has its own {@code seq}. */
    public List<DescriptorRow.Attribute> passedThroughHeaders(int index) {
        int sent = sentAs(index);
        return List.of(
                attribute("robot", robot(sent)),
                attribute("stream", stream(sent)),
                attribute(SEQ_HEADER, Integer.toString(index)),
                attribute("captured-at", START.plusMillis(10L * sent).toString()));
    }

    /** The camera frame a {@link DemoRecordKind#RESENT_FRAME} sends again: the last one before it. */
    int resentFrame(int index) {
        if (kind(index) != DemoRecordKind.RESENT_FRAME) {
            throw new IllegalArgumentException(
                    "record " + index + " is a " + kind(index).label() + ", not a re-sent frame");
        }
        int frame = index - 1;
        while (kind(frame) != DemoRecordKind.CAMERA_FRAME) {
            frame--;
        }
        return frame;
    }

    /** How many records of each kind the workload holds. */
    public Map<DemoRecordKind, Integer> countsByKind() {
        Map<DemoRecordKind, Integer> counts = new EnumMap<>(DemoRecordKind.class);
        for (int i = 0; i < count; i++) {
            counts.merge(kind(i), 1, Integer::sum);
        }
        return counts;
    }

    /** Bytes of the blobs carried in record values (External files not included). */
    public long inputBytes() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            if (!hasFile(i)) {
                total += size(i);
            }
        }
        return total;
    }

    /** The record index in a descriptor's or dead letter's {@code seq} header, -1 if there is none. */
    public static int indexOf(List<DescriptorRow.Attribute> headers) {
        for (DescriptorRow.Attribute header : headers) {
            if (header.name().equals(SEQ_HEADER) && header.value() != null) {
                try {
                    return Integer.parseInt(new String(header.value(), StandardCharsets.UTF_8));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    private byte[] badValue(int index, List<Header> headers) {
        BadRecord fault = fault(index);
        String allowedFile =
                externalDirectory.resolve("missing-" + index + ".bin").toUri().toString();
        switch (fault) {
            case NULL_VALUE -> {
                return null;
            }
            case HALF_RANGE -> headers.add(header(BlobHeaders.POSITION, "0"));
            case RELATIVE_URI -> headers.add(header(BlobHeaders.URI, "clips/clip-" + index + ".bin"));
            case UNKNOWN_MODE -> {
                headers.add(header(BlobHeaders.URI, allowedFile));
                headers.add(header(BlobHeaders.MODE, "copy"));
            }
            case FOREIGN_URI -> {
                headers.add(header(BlobHeaders.URI, "s3://another-fleet/clips/clip-" + index + ".mp4"));
                headers.add(header(BlobHeaders.MODE, BlobHeaders.MODE_REFERENCE));
            }
            case OVERSIZED_RANGE -> {
                headers.add(header(BlobHeaders.URI, allowedFile));
                headers.add(header(BlobHeaders.MODE, BlobHeaders.MODE_REFERENCE));
                headers.add(header(BlobHeaders.POSITION, "0"));
                headers.add(header(BlobHeaders.SIZE, Long.toString(TERABYTE)));
            }
        }
        return fault == BadRecord.HALF_RANGE ? telemetry(index, 200) : new byte[0];
    }

    /** The byte range a reference selects (every other reference), null for the whole file. */
    private ByteRange range(int index) {
        if (kind(index) != DemoRecordKind.EXTERNAL_REFERENCE || index % 100 != 77) {
            return null;
        }
        long fileSize = fileSize(index);
        return new ByteRange(fileSize / 4, fileSize / 2);
    }

    private long fileSize(int index) {
        SplittableRandom random = random(index, 2);
        return kind(index) == DemoRecordKind.EXTERNAL_REFERENCE
                ? 8 * KIB + random.nextInt(248 * KIB + 1)
                : KIB + random.nextInt(199 * KIB + 1);
    }

    private void requireFile(int index) {
        if (!hasFile(index)) {
            throw new IllegalArgumentException(
                    "record " + index + " is a " + kind(index).label() + ", it has no file");
        }
    }

    /** A CSV line of IMU readings, cut to {@code size} ASCII bytes. */
    private byte[] telemetry(int index, long size) {
        SplittableRandom random = random(index, 1);
        StringBuilder line = new StringBuilder((int) size + 16)
                .append(robot(index))
                .append(",imu,")
                .append(index);
        while (line.length() < size) {
            line.append(',').append(String.format(Locale.ROOT, "%.5f", random.nextDouble(-20, 20)));
        }
        line.setLength((int) size);
        return line.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] randomBytes(int index, long size) {
        byte[] bytes = new byte[Math.toIntExact(size)];
        random(index, 1).nextBytes(bytes);
        return bytes;
    }

    /** The record whose key, partition and passed-through headers (but {@code seq}) this one has. */
    private int sentAs(int index) {
        return kind(index) == DemoRecordKind.RESENT_FRAME ? resentFrame(index) : index;
    }

    private static String robot(int index) {
        return "robot-" + index % ROBOTS;
    }

    private String stream(int index) {
        return switch (kind(index)) {
            case TELEMETRY, BAD -> "imu";
            case CAMERA_FRAME, RESENT_FRAME -> "cam-front";
            case CALIBRATION_IMAGE -> "calibration";
            case VIDEO_SEGMENT -> "video";
            case EXTERNAL_REFERENCE -> "clip";
            case EXTERNAL_INGEST -> "upload";
        };
    }

    /**
     * Independent random streams per record: 0 sizes, 1 payload bytes, 2 file sizes. The
     * calibration image has those of {@link #CALIBRATION}.
     */
    private SplittableRandom random(int index, int stream) {
        return new SplittableRandom((seed * 0x9E3779B97F4A7C15L) ^ ((long) index << 8 | stream));
    }

    private static RecordHeader header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private static DescriptorRow.Attribute attribute(String name, String value) {
        return new DescriptorRow.Attribute(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private record ByteRange(long position, long size) {}
}
