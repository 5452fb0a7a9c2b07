package io.blobingest.bench.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An S3 API server in this JVM for the S3 read side: S3Proxy (as the tests use it) over jclouds'
 * in-memory {@code transient} store, on 127.0.0.1, path-style, one bucket, fixed credentials.
 * Objects are put behind the S3 API, so the upload is not part of what is measured.
 */
final class BenchS3Server implements AutoCloseable {

    static final String ACCESS_KEY = "blob-ingest-bench-access-key";
    static final String SECRET_KEY = "blob-ingest-bench-secret-key";
    static final String BUCKET = "blob-ingest-bench";

    private final BlobStoreContext context;
    private final S3Proxy proxy;

    BenchS3Server() throws Exception {
        context = ContextBuilder.newBuilder("transient")
                .credentials(ACCESS_KEY, SECRET_KEY)
                .build(BlobStoreContext.class);
        S3Proxy started = null;
        try {
            started = S3Proxy.builder()
                    .blobStore(context.getBlobStore())
                    .endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                    .build();
            started.start();
            if (!"STARTED".equals(started.getState())) {
                throw new IllegalStateException("S3Proxy did not start, state " + started.getState());
            }
            context.getBlobStore().createContainerInLocation(null, BUCKET);
        } catch (Exception e) {
            if (started != null) {
                started.stop();
            }
            context.close();
            throw e;
        }
        proxy = started;
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", proxy.getPort());
    }

    /**
     * Puts every file under {@code directory} as {@code <prefix>/<relative path>}.
     *
     * @return the base URI of the copy: {@code s3://<bucket>/<prefix>/}
     */
    URI upload(Path directory, String prefix) throws IOException {
        BlobStore store = context.getBlobStore();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            String key = prefix + "/" + directory.relativize(file).toString().replace('\\', '/');
            store.putBlob(
                    BUCKET,
                    store.blobBuilder(key).payload(Files.readAllBytes(file)).build());
        }
        return URI.create("s3://" + BUCKET + "/" + prefix + "/");
    }

    @Override
    public void close() throws Exception {
        try {
            proxy.stop();
        } finally {
            context.close();
        }
    }
}
