package io.blobingest.objectlayer;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Names on storage (spec.md section 3): blob set names, sidecar file names and where a blob set's
 * sidecars and manifest live under a base URI.
 *
 * <pre>
 * &lt;base&gt;/&lt;blob_set&gt;/&lt;sidecar name&gt;.blob
 * &lt;base&gt;/_descriptors/&lt;blob_set&gt;.arrow
 * </pre>
 *
 * A blob set name cannot be {@code _descriptors}: {@code _} is not in its alphabet.
 */
public final class BlobSets {

    public static final String DESCRIPTORS_DIRECTORY = "_descriptors";
    public static final String SIDECAR_SUFFIX = ".blob";
    public static final String MANIFEST_SUFFIX = ".arrow";

    /** Sidecar ids are u32; 0 is reserved. */
    public static final long MAX_SIDECAR_ID = 0xFFFF_FFFFL;

    /** spec.md section 3's blob set name, the one definition of it. */
    public static final String NAME_REGEX = "[0-9a-z-]{1,64}";

    private static final Pattern NAME = Pattern.compile(NAME_REGEX);

    private BlobSets() {}

    public static boolean isValidName(String blobSet) {
        return blobSet != null && NAME.matcher(blobSet).matches();
    }

    /**
     * @return {@code blobSet}
     * @throws IllegalArgumentException unless it matches {@code [0-9a-z-]{1,64}}
     */
    public static String requireValidName(String blobSet) {
        if (!isValidName(blobSet)) {
            throw new IllegalArgumentException("blob_set must match " + NAME_REGEX + ", found "
                    + (blobSet == null ? "null" : "\"" + blobSet + "\""));
        }
        return blobSet;
    }

    /**
     * The file name of sidecar {@code sidecarId}, as Lance names it: the 32 binary digits of the id
     * with its bits reversed, then {@code .blob} (id 1 is {@code 1000…0.blob}, id 2 {@code
     * 0100…0.blob}). Reversing spreads consecutive ids over the key space of object stores.
     */
    public static String sidecarFileName(long sidecarId) {
        if (sidecarId < 1 || sidecarId > MAX_SIDECAR_ID) {
            throw new IllegalArgumentException(
                    "sidecar id must be in [1, " + MAX_SIDECAR_ID + "] (0 is reserved), found " + sidecarId);
        }
        long reversed = Integer.toUnsignedLong(Integer.reverse((int) sidecarId));
        // The extra bit 32 keeps leading zeros; substring drops it again.
        return Long.toBinaryString(reversed | (1L << 32)).substring(1) + SIDECAR_SUFFIX;
    }

    /** {@code <base>/<blob_set>/<sidecar name>.blob}. */
    public static URI sidecarUri(URI base, String blobSet, long sidecarId) {
        requireValidName(blobSet);
        return URI.create(baseWithoutTrailingSlash(base) + "/" + blobSet + "/" + sidecarFileName(sidecarId));
    }

    /** {@code <base>/_descriptors/<blob_set>.arrow}. */
    public static URI manifestUri(URI base, String blobSet) {
        requireValidName(blobSet);
        return URI.create(
                baseWithoutTrailingSlash(base) + "/" + DESCRIPTORS_DIRECTORY + "/" + blobSet + MANIFEST_SUFFIX);
    }

    /**
     * Checks that {@code base} can hold blob sets: an absolute, hierarchical URI without userinfo,
     * query or fragment, such as {@code file:///data/blobs}, {@code file:/data/blobs/} or {@code
     * s3://bucket/prefix}.
     *
     * @return {@code base}
     */
    public static URI requireValidBase(URI base) {
        Objects.requireNonNull(base, "base");
        if (!base.isAbsolute() || base.isOpaque() || base.getRawQuery() != null || base.getRawFragment() != null) {
            throw new IllegalArgumentException(
                    "base must be an absolute hierarchical URI without query or fragment (file:///data,"
                            + " s3://bucket/prefix),"
                            + " found scheme " + base.getScheme() + " path " + base.getRawPath());
        }
        if (base.getRawUserInfo() != null) {
            // Credentials belong in the storage's configuration; a URI is printed in errors.
            throw new IllegalArgumentException(
                    "base must not carry userinfo, found one in a " + base.getScheme() + ": URI");
        }
        return base;
    }

    private static String baseWithoutTrailingSlash(URI base) {
        String text = requireValidBase(base).toString();
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == '/') {
            end--;
        }
        return text.substring(0, end);
    }
}
