package io.blobingest.sink.internal.sharing;

import io.blobingest.placement.PlacedBlob;
import java.util.zip.CRC32C;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Routes blobs to writer subtasks by their content, for {@code within-job} exact sharing: equal
 * bytes have equal crc32c and length, so identical blobs from any input partition reach the same
 * writer, whose SHA-256 index then decides identity. Blobs without bytes at hand are never
 * shared and only need spreading: one streamed from an external object goes by its object and
 * range, an External reference by its URI.
 */
@Internal
public final class ContentRouting implements KeySelector<PlacedBlob, Long>, Partitioner<Long> {

    private static final long serialVersionUID = 1L;

    @Override
    public Long getKey(PlacedBlob blob) {
        if (blob.bytes() != null) {
            CRC32C crc = new CRC32C();
            crc.update(blob.bytes());
            return (crc.getValue() << 32) ^ blob.bytes().length;
        }
        String where = blob.source() != null
                ? blob.source().location()
                        + '@'
                        + blob.source().offset()
                        + '+'
                        + blob.source().length()
                : blob.external().blobUri();
        return (long) where.hashCode();
    }

    @Override
    public int partition(Long key, int numPartitions) {
        // The key's low bits are the length, which blobs of one workload often share: mix them all.
        long mixed = key * 0x9E3779B97F4A7C15L;
        return Math.floorMod((int) (mixed ^ (mixed >>> 32)), numPartitions);
    }
}
