package io.blobingest.sink.internal;

import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * Per-kind counters of a writer subtask, under {@code kind.<inline|packed|dedicated|external>}:
 * {@code blobs} and {@code bytes} (logical bytes placed; 0 for External references). Also feeds
 * Flink's standard {@code numRecordsSend} and {@code numBytesSend} (bytes written to storage).
 */
final class WriterMetrics {

    private final Map<Placement, Counter> blobs = new EnumMap<>(Placement.class);
    private final Map<Placement, Counter> bytes = new EnumMap<>(Placement.class);
    private final Counter recordsSend;
    private final Counter bytesSend;

    WriterMetrics(SinkWriterMetricGroup group) {
        for (Placement placement : Placement.values()) {
            MetricGroup kind = group.addGroup("kind", placement.name().toLowerCase(Locale.ROOT));
            blobs.put(placement, kind.counter("blobs"));
            bytes.put(placement, kind.counter("bytes"));
        }
        recordsSend = group.getNumRecordsSendCounter();
        bytesSend = group.getNumBytesSendCounter();
    }

    void placed(PlacedBlob blob) {
        long length = blob.placedLength();
        blobs.get(blob.placement()).inc();
        bytes.get(blob.placement()).inc(length);
        recordsSend.inc();
        if (blob.placement() == Placement.PACKED || blob.placement() == Placement.DEDICATED) {
            bytesSend.inc(length);
        }
    }
}
