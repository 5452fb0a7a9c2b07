package io.blobingest.cli.gc;

import io.blobingest.cli.gc.Leftover.Kind;
import io.blobingest.cli.gc.internal.MultipartUploads;
import io.blobingest.cli.gc.internal.MultipartUploads.Upload;
import io.blobingest.cli.gc.internal.S3Clients;
import io.blobingest.cli.internal.FileTrees;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.storage.DirectoryListing;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * Finds and removes what failed attempts left under a base (docs/storage.md, "gc"): hidden
 * in-progress files of the local recoverable writer, {@code _tmp_} objects of the S3 one's {@code
 * persist()}, and multipart uploads in progress. Files are listed through Flink's file system; the
 * uploads, which Flink has no API for, with the AWS SDK ({@link MultipartUploads}).
 * Removal is idempotent: what is gone already, removed by another gc or by its writer, counts as
 * removed.
 *
 * <p>Nothing a committed manifest names is ever removed: {@link #namedByCommittedManifest} holds
 * for a committed blob set's sidecars and manifest, and {@link #remove} refuses those files. A
 * multipart upload to such a key is a stale one, removable: the committer completes every upload
 * of a set before it publishes the manifest, so an upload still in progress at a committed key is
 * abandoned by a failed attempt, which no committer will complete, and aborting it leaves the
 * committed object as it is.
 */
public final class Leftovers implements Closeable {

    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    /** Flink's LocalRecoverableWriter: {@code .<name>.inprogress.<uuid>}. */
    private static final Pattern IN_PROGRESS_FILE = Pattern.compile("\\.(.+)\\.inprogress\\." + UUID);
    /** Flink's S3 RecoverableMultiPartUploadImpl: {@code _<name>_tmp_<uuid>}. */
    private static final Pattern PERSISTED_PART = Pattern.compile("_(.+)_tmp_" + UUID);

    private static final Pattern SIDECAR = Pattern.compile("[01]{32}" + Pattern.quote(BlobSets.SIDECAR_SUFFIX));

    private final URI base;
    private final Path basePath;
    private final Optional<MultipartUploads> s3;
    private Set<String> committedBlobSets;

    private Leftovers(URI base, Optional<MultipartUploads> s3) {
        this.base = BlobSets.requireValidBase(base);
        this.basePath = new Path(base);
        this.s3 = s3;
    }

    /**
     * Leftovers under {@code base} on the file system Flink serves for it; for {@code s3://} also
     * multipart uploads, through an S3 client set up from {@code config} (endpoint, path style,
     * region, static keys: the keys the S3 file system reads; without keys the AWS credential
     * chain). Close it to release that client.
     */
    public static Leftovers under(URI base, Configuration config) {
        boolean s3 = "s3".equalsIgnoreCase(base.getScheme()) || "s3a".equalsIgnoreCase(base.getScheme());
        return new Leftovers(base, s3 ? Optional.of(new MultipartUploads(S3Clients.from(config))) : Optional.empty());
    }

    /** Every leftover under the base, sorted by location. */
    public List<Leftover> find() throws IOException {
        List<Leftover> found = new ArrayList<>(files());
        if (s3.isPresent()) {
            for (Upload upload : s3.get().list(bucket(), keyPrefix())) {
                found.add(new Leftover(
                        Kind.MULTIPART_UPLOAD,
                        URI.create("s3://" + bucket() + "/" + upload.key()),
                        upload.initiated(),
                        upload.uploadId()));
            }
        }
        found.sort(
                Comparator.comparing((Leftover leftover) -> leftover.location().toString())
                        .thenComparing(Leftover::uploadId));
        return found;
    }

    /**
     * True if {@code leftover}'s location is a sidecar or the manifest of a blob set whose manifest
     * is committed: a multipart upload to a committed key.
     */
    public boolean namedByCommittedManifest(Leftover leftover) throws IOException {
        String relative = relativeToBase(leftover.location());
        int slash = relative.indexOf('/');
        if (slash < 0 || relative.indexOf('/', slash + 1) >= 0) {
            return false;
        }
        String directory = relative.substring(0, slash);
        String name = relative.substring(slash + 1);
        if (directory.equals(BlobSets.DESCRIPTORS_DIRECTORY) && name.endsWith(BlobSets.MANIFEST_SUFFIX)) {
            return committedBlobSets().contains(name.substring(0, name.length() - BlobSets.MANIFEST_SUFFIX.length()));
        }
        return SIDECAR.matcher(name).matches() && committedBlobSets().contains(directory);
    }

    /**
     * Deletes the file, or aborts the upload.
     *
     * @return true if this call removed it, false if it was gone already
     * @throws IllegalArgumentException if it is a file a committed manifest names
     */
    public boolean remove(Leftover leftover) throws IOException {
        if (leftover.kind() != Kind.MULTIPART_UPLOAD && namedByCommittedManifest(leftover)) {
            throw new IllegalArgumentException(
                    "refusing to remove " + leftover.location() + ": a committed manifest names it");
        }
        if (leftover.kind() == Kind.MULTIPART_UPLOAD) {
            return s3.orElseThrow(() -> new IllegalStateException("no S3 client for " + base))
                    .abort(bucket(), leftover.location().getPath().substring(1), leftover.uploadId());
        }
        Path path = new Path(leftover.location());
        if (path.getFileSystem().delete(path, false)) {
            return true;
        }
        if (path.getFileSystem().exists(path)) {
            throw new IOException("could not delete " + leftover.location());
        }
        return false;
    }

    @Override
    public void close() {
        s3.ifPresent(MultipartUploads::close);
    }

    private List<Leftover> files() throws IOException {
        List<FileStatus> files;
        try {
            files = FileTrees.files(basePath);
        } catch (FileNotFoundException e) {
            return List.of(); // nothing committed or persisted yet; uploads may still exist
        }
        List<Leftover> found = new ArrayList<>();
        for (FileStatus file : files) {
            String name = file.getPath().getName();
            Optional<Instant> since = Optional.of(Instant.ofEpochMilli(file.getModificationTime()))
                    .filter(time -> time.toEpochMilli() > 0);
            if (IN_PROGRESS_FILE.matcher(name).matches()) {
                found.add(new Leftover(Kind.IN_PROGRESS_FILE, file.getPath().toUri(), since, ""));
            } else if (PERSISTED_PART.matcher(name).matches()) {
                found.add(new Leftover(Kind.PERSISTED_PART, file.getPath().toUri(), since, ""));
            }
        }
        return found;
    }

    private Set<String> committedBlobSets() throws IOException {
        if (committedBlobSets == null) {
            Set<String> names = new HashSet<>();
            Path manifests = new Path(basePath, BlobSets.DESCRIPTORS_DIRECTORY);
            for (FileStatus manifest : DirectoryListing.list(manifests)) {
                String name = manifest.getPath().getName();
                if (name.endsWith(BlobSets.MANIFEST_SUFFIX) && !name.startsWith(".") && !name.startsWith("_")) {
                    names.add(name.substring(0, name.length() - BlobSets.MANIFEST_SUFFIX.length()));
                }
            }
            committedBlobSets = names;
        }
        return committedBlobSets;
    }

    private String relativeToBase(URI location) {
        String prefix = basePath.toUri().getPath();
        String path = location.getPath();
        if (!prefix.endsWith("/")) {
            prefix = prefix + "/";
        }
        return path.startsWith(prefix) ? path.substring(prefix.length()) : "";
    }

    private String bucket() {
        return base.getAuthority();
    }

    /**
     * The base's key prefix with a trailing slash: {@code s3://b/blobs} lists {@code blobs/...}, not {@code blobs2/}.
     */
    private String keyPrefix() {
        String path = basePath.toUri().getPath();
        String prefix = path.startsWith("/") ? path.substring(1) : path;
        return prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
    }
}
