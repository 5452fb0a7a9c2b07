package io.blobingest.storage.testing;

import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.options.GetOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The store behind S3Proxy, recording each object GET it serves. S3Proxy turns one HTTP GET into
 * exactly one {@code getBlob} call, so this is the server's view of the requests.
 */
final class RecordingBlobStore extends ForwardingBlobStore {

    private final List<ObjectGet> gets = new CopyOnWriteArrayList<>();

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

    List<ObjectGet> gets() {
        return List.copyOf(gets);
    }

    void clear() {
        gets.clear();
    }
}
