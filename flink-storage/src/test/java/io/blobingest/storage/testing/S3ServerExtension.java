package io.blobingest.storage.testing;

import io.blobingest.storage.FlinkFileSystems;
import io.blobingest.storage.S3Options;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.jclouds.filesystem.reference.FilesystemConstants;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real S3 API server in this JVM for a test class: S3Proxy over jclouds' in-memory
 * {@code transient} store (or, {@link #onDisk}, its {@code filesystem} store), on a free port of
 * 127.0.0.1, path-style, with fixed test credentials and one bucket. Register it as a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension();
 * ...
 * S3.initializeFlinkFileSystems();          // s3:// through the flink-s3-fs-hadoop plugin
 * URI object = S3.uri("packs/a.blob");      // s3://blob-ingest-test/packs/a.blob
 * }</pre>
 *
 * <p>Besides the S3 API it answers questions a test has about the server's state: the committed
 * object keys, the multipart uploads in progress, the GETs and HEADs it served.
 */
public final class S3ServerExtension implements BeforeAllCallback, AfterAllCallback {

    public static final String ACCESS_KEY = "blob-ingest-test-access-key";
    public static final String SECRET_KEY = "blob-ingest-test-secret-key";
    public static final String DEFAULT_BUCKET = "blob-ingest-test";

    /** jclouds' local stores keep multipart parts and stubs as blobs under this prefix. */
    private static final String JCLOUDS_MULTIPART_PREFIX = ".mpus-";

    private final String bucket;
    /** Where the {@code filesystem} store keeps the bucket; null: the in-memory store. */
    private final Path storeDirectory;

    private BlobStoreContext context;
    private RecordingBlobStore store;
    private S3Proxy proxy;
    private URI endpoint;
    private Path tempDirectory;
    private boolean flinkInitialized;

    public S3ServerExtension() {
        this(DEFAULT_BUCKET);
    }

    public S3ServerExtension(String bucket) {
        this(bucket, null);
    }

    private S3ServerExtension(String bucket, Path storeDirectory) {
        this.bucket = bucket;
        this.storeDirectory = storeDirectory;
    }

    /**
     * A server that keeps its objects as files under {@code storeDirectory} (jclouds' {@code
     * filesystem} store), so that a test can fill the file system they are on: then the server's
     * writes fail as a real server's do when its disk is full.
     */
    public static S3ServerExtension onDisk(String bucket, Path storeDirectory) {
        return new S3ServerExtension(bucket, storeDirectory);
    }

    @Override
    public void beforeAll(ExtensionContext extensionContext) throws Exception {
        tempDirectory = Files.createTempDirectory("s3-server-extension");
        ContextBuilder builder = storeDirectory == null
                ? ContextBuilder.newBuilder("transient")
                : ContextBuilder.newBuilder("filesystem").overrides(filesystemStore(storeDirectory));
        context = builder.credentials(ACCESS_KEY, SECRET_KEY).build(BlobStoreContext.class);
        store = new RecordingBlobStore(context.getBlobStore());
        proxy = startProxy(URI.create("http://127.0.0.1:0"));
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        store.createContainerInLocation(null, bucket);
    }

    private static Properties filesystemStore(Path directory) throws IOException {
        Files.createDirectories(directory);
        Properties properties = new Properties();
        properties.setProperty(FilesystemConstants.PROPERTY_BASEDIR, directory.toString());
        return properties;
    }

    private S3Proxy startProxy(URI address) throws Exception {
        S3Proxy started = S3Proxy.builder()
                .blobStore(store)
                .endpoint(address)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        started.start();
        if (!"STARTED".equals(started.getState())) {
            throw new IllegalStateException("S3Proxy did not start on " + address + ", state " + started.getState());
        }
        return started;
    }

    /**
     * Stops the S3 API server: connections to {@link #endpoint()} are refused until {@link
     * #restartServer()}. The store behind it keeps every object and upload in progress, as a
     * server's disk outlives its process.
     */
    public void stopServer() throws Exception {
        proxy.stop();
    }

    /** Starts the S3 API server again on the port it had, over the same objects and uploads. */
    public void restartServer() throws Exception {
        proxy = startProxy(endpoint);
    }

    @Override
    public void afterAll(ExtensionContext extensionContext) throws Exception {
        try {
            if (flinkInitialized) {
                // Later test classes must not reach this server's dead endpoint through the cache.
                FileSystem.initialize(new Configuration(), null);
            }
            if (proxy != null) {
                proxy.stop();
            }
        } finally {
            if (context != null) {
                context.close();
            }
            deleteRecursively(tempDirectory);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public String bucket() {
        return bucket;
    }

    /** {@code s3://<bucket>/<key>}. */
    public URI uri(String key) {
        return URI.create("s3://" + bucket + "/" + key);
    }

    /**
     * A fresh Flink configuration for this server: endpoint, path-style, credentials, no TLS,
     * and {@code io.tmp.dirs} (where the S3 writer buffers parts) in a directory of this server.
     */
    public Configuration flinkConfiguration() {
        Configuration configuration = new Configuration();
        configuration.set(S3Options.ENDPOINT, endpoint.toString());
        configuration.set(S3Options.PATH_STYLE_ACCESS, true);
        configuration.set(S3Options.ACCESS_KEY, ACCESS_KEY);
        configuration.set(S3Options.SECRET_KEY, SECRET_KEY);
        configuration.set(S3Options.SSL_ENABLED, false);
        configuration.set(CoreOptions.TMP_DIRS, tempDirectory.toString());
        return configuration;
    }

    /** Points Flink's process-wide file systems at this server (reset again after the class). */
    public void initializeFlinkFileSystems() {
        initializeFlinkFileSystems(flinkConfiguration());
    }

    /** The same with {@code configuration}: {@link #flinkConfiguration()} with a test's own settings added. */
    public void initializeFlinkFileSystems(Configuration configuration) {
        FlinkFileSystems.initialize(configuration, FlinkTestPlugins.root());
        flinkInitialized = true;
    }

    /** Keys of all objects an S3 listing shows, sorted; the store's multipart bookkeeping left out. */
    public List<String> objectKeys() {
        return objectKeys("");
    }

    /** Keys starting with {@code prefix} of the objects an S3 listing shows, sorted. */
    public List<String> objectKeys(String prefix) {
        Set<String> uploadIds = inProgressMultipartUploads().stream()
                .map(InProgressUpload::uploadId)
                .collect(Collectors.toSet());
        List<String> keys = new ArrayList<>();
        ListContainerOptions options = ListContainerOptions.Builder.recursive();
        while (true) {
            PageSet<? extends StorageMetadata> page = context.getBlobStore().list(bucket, options);
            for (StorageMetadata metadata : page) {
                String name = metadata.getName();
                // S3Proxy keeps a stub blob named by the upload id of each upload in progress.
                if (metadata.getType() == StorageType.BLOB
                        && name.startsWith(prefix)
                        && !name.startsWith(JCLOUDS_MULTIPART_PREFIX)
                        && !uploadIds.contains(name)) {
                    keys.add(name);
                }
            }
            if (page.getNextMarker() == null) {
                break;
            }
            options = ListContainerOptions.Builder.recursive().afterMarker(page.getNextMarker());
        }
        keys.sort(Comparator.naturalOrder());
        return keys;
    }

    /** The multipart uploads initiated and neither completed nor aborted. */
    public List<InProgressUpload> inProgressMultipartUploads() {
        List<InProgressUpload> uploads = new ArrayList<>();
        for (MultipartUpload upload : context.getBlobStore().listMultipartUploads(bucket)) {
            uploads.add(new InProgressUpload(upload.blobName(), upload.id()));
        }
        return uploads;
    }

    /** The bytes of a committed object, read behind the S3 API (not recorded as a GET). */
    public byte[] objectBytes(String key) {
        Blob blob = context.getBlobStore().getBlob(bucket, key);
        if (blob == null) {
            throw new IllegalArgumentException("no object " + key + " in bucket " + bucket);
        }
        try (InputStream in = blob.getPayload().openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read object " + key, e);
        }
    }

    /** The object GETs served since the start or the last {@link #clearRecordedReads()}, in order. */
    public List<ObjectGet> recordedGets() {
        return store.gets();
    }

    /** The keys of the object HEADs served since the start or the last {@link #clearRecordedReads()}. */
    public List<String> recordedHeads() {
        return store.heads();
    }

    public void clearRecordedReads() {
        store.clear();
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(path);
            }
        }
    }
}
