package io.blobingest.bench.internal;

import io.blobingest.cli.demo.DemoWorkload;
import java.nio.file.Path;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The demo's robotics mix ({@link DemoWorkload}) as a bench workload of a given size. */
public final class MixedWorkload implements TopicWorkload {

    private final DemoWorkload demo;

    private MixedWorkload(DemoWorkload demo) {
        this.demo = demo;
    }

    /**
     * The first records of the demo's mix whose blobs carried in record values add up to {@code
     * totalBytes}, and at least {@link DemoWorkload#MIN_COUNT} of them.
     */
    public static MixedWorkload ofTotalBytes(long seed, long totalBytes, Path externalDirectory) {
        DemoWorkload probe = new DemoWorkload(seed, DemoWorkload.MIN_COUNT, externalDirectory);
        long bytes = 0;
        int count = 0;
        while (bytes < totalBytes && count < Integer.MAX_VALUE) {
            if (!probe.hasFile(count)) {
                bytes += probe.size(count);
            }
            count++;
        }
        return new MixedWorkload(new DemoWorkload(seed, Math.max(count, DemoWorkload.MIN_COUNT), externalDirectory));
    }

    public DemoWorkload demo() {
        return demo;
    }

    @Override
    public int count() {
        return demo.count();
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(String topic, int partitions, int index) {
        return demo.producerRecord(topic, partitions, index);
    }
}
