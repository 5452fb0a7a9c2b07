package io.blobingest.sink.internal;

import java.util.regex.Pattern;
import org.apache.flink.core.fs.Path;

/**
 * Names and paths of SPEC section 3:
 *
 * <pre>
 * &lt;base&gt;/&lt;blob_set&gt;/&lt;sidecar name&gt;.blob        Raw Packs and Dedicated sidecars
 * &lt;base&gt;/_descriptors/&lt;blob_set&gt;.arrow         one descriptor manifest per committed blob set
 * </pre>
 *
 * A sidecar's name is, as in Lance, the 32 binary digits of its id with the bits reversed.
 */
public final class BlobSetLayout {

    /** The directory under the base path that holds the manifests. */
    public static final String DESCRIPTORS_DIRECTORY = "_descriptors";

    public static final String SIDECAR_SUFFIX = ".blob";
    public static final String MANIFEST_SUFFIX = ".arrow";

    /** Sidecar ids are u32 and 0 is reserved. */
    public static final long MAX_SIDECAR_ID = 0xFFFF_FFFFL;

    private static final Pattern BLOB_SET_NAME = Pattern.compile("[0-9a-z-]{1,64}");

    private BlobSetLayout() {}

    /** True if {@code name} is a valid {@code blob_set}: {@code [0-9a-z-]{1,64}}. */
    public static boolean isValidBlobSetName(String name) {
        return name != null && BLOB_SET_NAME.matcher(name).matches();
    }

    /**
     * @throws IllegalArgumentException naming the bad value if {@code name} is not a valid blob set
     *     name
     */
    public static String requireValidBlobSetName(String name) {
        if (!isValidBlobSetName(name)) {
            throw new IllegalArgumentException(
                    "blob_set must match [0-9a-z-]{1,64}, found \"" + name + "\"");
        }
        return name;
    }

    /** The file name of sidecar {@code sidecarId}, e.g. {@code 1000…0.blob} for id 1. */
    public static String sidecarFileName(long sidecarId) {
        if (sidecarId < 1 || sidecarId > MAX_SIDECAR_ID) {
            throw new IllegalArgumentException(
                    "sidecar id must be in [1, " + MAX_SIDECAR_ID + "], found " + sidecarId);
        }
        String bits = Integer.toBinaryString(Integer.reverse((int) sidecarId));
        return "0".repeat(Integer.SIZE - bits.length()) + bits + SIDECAR_SUFFIX;
    }

    /** The id encoded in a sidecar file name, the inverse of {@link #sidecarFileName}. */
    public static long sidecarId(String fileName) {
        if (!fileName.endsWith(SIDECAR_SUFFIX)
                || fileName.length() != Integer.SIZE + SIDECAR_SUFFIX.length()) {
            throw new IllegalArgumentException(
                    "not a sidecar file name (32 binary digits + .blob): \"" + fileName + "\"");
        }
        String bits = fileName.substring(0, Integer.SIZE);
        if (!bits.chars().allMatch(c -> c == '0' || c == '1')) {
            throw new IllegalArgumentException(
                    "not a sidecar file name (32 binary digits + .blob): \"" + fileName + "\"");
        }
        return Integer.toUnsignedLong(Integer.reverse(Integer.parseUnsignedInt(bits, 2)));
    }

    public static Path blobSetDirectory(Path base, String blobSet) {
        return new Path(base, requireValidBlobSetName(blobSet));
    }

    public static Path sidecarPath(Path base, String blobSet, long sidecarId) {
        return new Path(blobSetDirectory(base, blobSet), sidecarFileName(sidecarId));
    }

    public static Path manifestPath(Path base, String blobSet) {
        return new Path(
                new Path(base, DESCRIPTORS_DIRECTORY), requireValidBlobSetName(blobSet) + MANIFEST_SUFFIX);
    }
}
