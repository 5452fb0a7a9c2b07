package io.blobingest.storage.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.options.GetOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;

/**
 * The store behind S3Proxy, recording the object GETs and HEADs it serves. S3Proxy turns one HTTP
 * GET into exactly one {@code getBlob} call and one HEAD into one {@code blobMetadata} call, so
 * this is the server's view of the reads. (S3Proxy also looks up metadata of its own multipart
 * bookkeeping while uploads complete; those show up as HEADs of the upload id.)
 */
final class RecordingBlobStore extends ForwardingBlobStore {

    private final List<ObjectGet> gets = new CopyOnWriteArrayList<>();
    private final List<String> heads = new CopyOnWriteArrayList<>();

    RecordingBlobStore(BlobStore delegate) {
        super(delegate);
    }

    @Override
    public Blob getBlob(String container, String name, GetOptions options) {
        List<String> ranges = options.getRanges();
        gets.add(new ObjectGet(name, ranges.isEmpty() ? "" : String.join(",", ranges)));
        return super.getBlob(container, name, options);
    }

    @Override
    public Blob getBlob(String container, String name) {
        gets.add(new ObjectGet(name, ""));
        return super.getBlob(container, name);
    }

    @Override
    public BlobMetadata blobMetadata(String container, String name) {
        heads.add(name);
        return super.blobMetadata(container, name);
    }

    List<ObjectGet> gets() {
        return List.copyOf(gets);
    }

    List<String> heads() {
        return List.copyOf(heads);
    }

    void clear() {
        gets.clear();
        heads.clear();
    }
}
