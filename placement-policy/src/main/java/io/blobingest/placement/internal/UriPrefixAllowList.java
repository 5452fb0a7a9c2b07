package io.blobingest.placement.internal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The external URIs the pipeline may reference or fetch. A prefix matches a normalized URI that
 * starts with it at a path boundary: {@code s3://bucket} matches {@code s3://bucket/key} but not
 * {@code s3://bucket-other/key}; a prefix ending in {@code /} matches everything below it. Empty
 * list: nothing is allowed.
 */
public final class UriPrefixAllowList implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final String PATH_BOUNDARIES = "/?#";

    private final List<String> prefixes;

    /**
     * @param prefixes each starts with a scheme ({@code s3://bucket/dir/}, {@code file:/data/});
     *     in the normal form of {@link ExternalUris#normalize}, except that the scheme may be in
     *     any case and an absent authority may be left out
     */
    public UriPrefixAllowList(List<String> prefixes) {
        List<String> normal = new ArrayList<>(prefixes.size());
        for (int i = 0; i < prefixes.size(); i++) {
            String prefix = prefixes.get(i);
            var scheme = SCHEME.matcher(prefix == null ? "" : prefix);
            if (!scheme.find() || scheme.end() == prefix.length()) {
                throw new IllegalArgumentException("allowed URI prefix #" + (i + 1)
                        + " must be a scheme followed by a path, such as s3://bucket/ or file:/data/");
            }
            normal.add(ExternalUris.normalizePrefix(prefix.substring(0, scheme.end()), prefix.substring(scheme.end())));
        }
        this.prefixes = List.copyOf(normal);
    }

    public int size() {
        return prefixes.size();
    }

    /** @param normalizedUri a URI from {@link ExternalUris#normalize} */
    public boolean allows(String normalizedUri) {
        for (String prefix : prefixes) {
            if (covers(prefix, normalizedUri)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The prefixes that cover the directory {@code normalizedDirectory}, everything in it included:
     * a blob read through one could be one of the job's own files (a pack, a checkpoint).
     *
     * @param normalizedDirectory a URI from {@link ExternalUris#normalize}
     */
    public List<String> covering(String normalizedDirectory) {
        String directory = normalizedDirectory.endsWith("/") ? normalizedDirectory : normalizedDirectory + "/";
        List<String> covering = new ArrayList<>();
        for (String prefix : prefixes) {
            if (covers(prefix, directory)) {
                covering.add(prefix);
            }
        }
        return covering;
    }

    /** The prefixes that name the root of a file system ({@code file:/}), which holds every local file. */
    public List<String> fileSystemRoots() {
        return prefixes.stream().filter(prefix -> prefix.equals("file:///")).toList();
    }

    private static boolean covers(String prefix, String normalizedUri) {
        return normalizedUri.startsWith(prefix)
                && (prefix.endsWith("/")
                        || normalizedUri.length() == prefix.length()
                        || PATH_BOUNDARIES.indexOf(normalizedUri.charAt(prefix.length())) >= 0);
    }
}
