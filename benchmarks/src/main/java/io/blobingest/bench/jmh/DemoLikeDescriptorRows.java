package io.blobingest.bench.jmh;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.objectlayer.pack.RawPackFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Descriptor rows in the proportions of the demo's robotics workload: per hundred rows, 80 Inline
 * telemetry packets of 100-500 bytes, 17 Packed camera frames, one Dedicated video segment and
 * two External references, each with the demo's four passed-through headers.
 */
final class DemoLikeDescriptorRows {

    private static final String SOURCE_TOPIC = "robot-blobs";
    private static final Instant START = Instant.parse("2025-06-01T08:00:00Z");

    private DemoLikeDescriptorRows() {}

    static List<DescriptorRow> generate(int count, String blobSet) {
        SplittableRandom random = new SplittableRandom(42);
        List<DescriptorRow> rows = new ArrayList<>(count);
        int packEntries = 0;
        for (int i = 0; i < count; i++) {
            int share = i % 100;
            Long crc32c = random.nextLong(1L << 32);
            if (share < 80) {
                byte[] telemetry = new byte[random.nextInt(100, 501)];
                random.nextBytes(telemetry);
                rows.add(row(i, "imu", BlobDescriptor.inline(telemetry.length), null, telemetry, crc32c));
            } else if (share < 97) {
                BlobDescriptor frame = BlobDescriptor.packed(
                        RawPackFormat.entryReference(packEntries++), random.nextInt(30 << 10, 600 << 10), 1);
                rows.add(row(i, "cam-front", frame, blobSet, null, crc32c));
            } else if (share < 98) {
                BlobDescriptor segment = BlobDescriptor.dedicated(random.nextInt(5 << 20, 40 << 20), 2 + i);
                rows.add(row(i, "video", segment, blobSet, null, crc32c));
            } else {
                BlobDescriptor reference = BlobDescriptor.external(
                        "s3://robot-archive/lidar/" + i + ".bin", 0, random.nextInt(8 << 10, 256 << 10));
                rows.add(row(i, "lidar", reference, null, null, null));
            }
        }
        return rows;
    }

    private static DescriptorRow row(
            int index, String stream, BlobDescriptor blob, String blobSet, byte[] inlineData, Long crc32c) {
        String robot = "robot-" + index % 4;
        byte[] key = (robot + "/" + stream + "/" + index).getBytes(StandardCharsets.UTF_8);
        List<Attribute> attributes = List.of(
                attribute("robot", robot),
                attribute("stream", stream),
                attribute("seq", Integer.toString(index)),
                attribute("captured-at", START.plusMillis(10L * index).toString()));
        return new DescriptorRow(
                key, SOURCE_TOPIC, index % 3, index, null, blob, blobSet, inlineData, crc32c, attributes);
    }

    private static Attribute attribute(String name, String value) {
        return new Attribute(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
