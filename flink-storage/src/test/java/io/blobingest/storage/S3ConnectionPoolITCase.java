package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.ResolveContext;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.storage.testing.S3ServerExtension;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A batch read spanning more S3 objects (Raw Packs) than the S3 client has connections. S3A's pool holds
 * {@code fs.s3a.connection.maximum} connections (96 by default), and a stream whose ranged GET
 * was not read to its end keeps its connection leased. A batch keeps its objects open until it
 * ends, so their idle streams must not hold connections. Two things see to it: the Object Layer's
 * streams ask for exactly the bytes they read (no readahead), and an idle stream is unbuffered.
 * When this test was written only the second did: with S3A's 64 KiB readahead, every small read
 * left its GET unfinished, and the batch failed with {@code Timeout waiting for connection from
 * pool}.
 */
class S3ConnectionPoolITCase {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    /** Far fewer than the objects of one batch; S3A waits this long for a connection before it fails. */
    private static final String CONNECTIONS = "4";

    private static final String POOL_WAIT_MS = "2000";
    private static final String BLOB_SET = "pool-set";
    private static final int PACKS = 12;
    /** Below S3A's default readahead (64 KiB), which a stream that reads ahead would leave unread. */
    private static final int SMALL_ENTRY = 1_000;

    private static final int GAP_ENTRY = 500_000;

    @BeforeAll
    static void initializeFileSystems() {
        Configuration configuration = S3.flinkConfiguration();
        configuration.setString("fs.s3a.connection.maximum", CONNECTIONS);
        configuration.setString("fs.s3a.connection.establish.timeout", POOL_WAIT_MS);
        S3.initializeFlinkFileSystems(configuration);
    }

    @Test
    void aBatchOverMorePacksThanConnectionsReadsEveryEntryByteExact() throws IOException {
        URI base = S3.uri("pool");
        List<byte[]> payloads = new ArrayList<>();
        List<BlobRequest> requests = new ArrayList<>();
        ResolveContext context =
                ResolveContext.forBlobSet(base, BLOB_SET, Set.of(RawPackFormat.FEATURE_BLOB_OBJECT_PACK));
        for (long sidecarId = 1; sidecarId <= PACKS; sidecarId++) {
            URI uri = BlobSets.sidecarUri(base, BLOB_SET, sidecarId);
            RecoverableFsDataOutputStream out =
                    FileSystem.get(uri).createRecoverableWriter().open(new Path(uri));
            RawPackWriter pack = RawPackWriter.create(out, new RawPackMetadata(BLOB_SET, sidecarId, "s3-pool-it"));
            // A small entry, a gap wider than the S3 hole limit (256 KiB), a small entry: two reads of one pack.
            for (int length : new int[] {SMALL_ENTRY, GAP_ENTRY, SMALL_ENTRY}) {
                byte[] payload = randomBytes(length, sidecarId * 10 + length);
                long entry = pack.append(payload);
                if (length == SMALL_ENTRY) {
                    payloads.add(payload);
                    requests.add(BlobRequest.of(BlobDescriptor.packed(entry, length, sidecarId), context));
                }
            }
            pack.finish();
            out.closeForCommit().commit();
        }

        List<byte[]> blobs;
        try (ObjectLayer layer =
                ObjectLayer.builder(new FlinkFileSystemStorage()).build()) {
            blobs = layer.readAll(requests);
        }

        assertThat(blobs).hasSameSizeAs(payloads);
        for (int i = 0; i < payloads.size(); i++) {
            assertThat(blobs.get(i)).as("entry %d", i).isEqualTo(payloads.get(i));
        }
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
