package io.blobingest.sink.internal.writer;

import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * Per-kind counters of a writer subtask, under {@code kind.<inline|packed|dedicated|external>}:
 * {@code blobs} and {@code bytes} (logical bytes placed; 0 for External references). With exact
 * sharing, under {@code sharing}: {@code blobs} and {@code bytes} (blobs that named a stored object
 * instead of storing their bytes) and the gauge {@code indexEntries}. Also feeds Flink's standard
 * {@code numRecordsSend} and {@code numBytesSend} (bytes written to storage).
 */
final class WriterMetrics {

    private final Map<Placement, Counter> blobs = new EnumMap<>(Placement.class);
    private final Map<Placement, Counter> bytes = new EnumMap<>(Placement.class);
    private final Counter recordsSend;
    private final Counter bytesSend;
    private final Counter sharedBlobs;
    private final Counter sharedBytes;

    /** @param sharingIndexSize the size of the exact sharing index, null when sharing is off */
    WriterMetrics(SinkWriterMetricGroup group, IntSupplier sharingIndexSize) {
        for (Placement placement : Placement.values()) {
            MetricGroup kind = group.addGroup("kind", placement.name().toLowerCase(Locale.ROOT));
            blobs.put(placement, kind.counter("blobs"));
            bytes.put(placement, kind.counter("bytes"));
        }
        recordsSend = group.getNumRecordsSendCounter();
        bytesSend = group.getNumBytesSendCounter();
        MetricGroup sharing = group.addGroup("sharing");
        sharedBlobs = sharing.counter("blobs");
        sharedBytes = sharing.counter("bytes");
        if (sharingIndexSize != null) {
            sharing.gauge("indexEntries", sharingIndexSize::getAsInt);
        }
    }

    /** {@code blob} was placed by naming a stored object: counted as placed, but no byte was sent. */
    void shared(PlacedBlob blob) {
        counted(blob);
        sharedBlobs.inc();
        sharedBytes.inc(blob.placedLength());
    }

    void placed(PlacedBlob blob) {
        counted(blob);
        if (blob.placement() == Placement.PACKED || blob.placement() == Placement.DEDICATED) {
            bytesSend.inc(blob.placedLength());
        }
    }

    private void counted(PlacedBlob blob) {
        blobs.get(blob.placement()).inc();
        bytes.get(blob.placement()).inc(blob.placedLength());
        recordsSend.inc();
    }
}
