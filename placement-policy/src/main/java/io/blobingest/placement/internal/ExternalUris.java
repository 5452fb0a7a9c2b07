package io.blobingest.placement.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Checks and normalizes the URI of an external blob. Messages never quote the URI: it may carry a
 * secret (a presigned query, credentials).
 */
public final class ExternalUris {

    private ExternalUris() {}

    /**
     * The URI in normal form: scheme in lower case, an absent authority written as an empty one
     * ({@code file:/x} becomes {@code file:///x}), {@code .} segments removed. Nothing else is
     * rewritten, because object stores treat keys as opaque strings ({@code a//b} is not {@code a/b}).
     *
     * @throws IllegalArgumentException if the URI is not absolute and hierarchical, has userinfo or
     *     a {@code ..} segment
     */
    public static String normalize(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "blob.uri is not a valid URI: " + e.getReason() + " at index " + e.getIndex());
        }
        if (!uri.isAbsolute()) {
            throw new IllegalArgumentException("blob.uri is not absolute: it has no scheme");
        }
        if (uri.isOpaque()) {
            throw new IllegalArgumentException("blob.uri is opaque: expected scheme://authority/path or scheme:/path");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("blob.uri has userinfo: credentials must not travel in a URI");
        }
        for (String segment : uri.getPath().split("/", -1)) {
            if (segment.equals("..")) {
                throw new IllegalArgumentException("blob.uri has a '..' path segment");
            }
        }
        StringBuilder normal = new StringBuilder(text.length() + 2)
                .append(uri.getScheme().toLowerCase(Locale.ROOT))
                .append("://");
        if (uri.getRawAuthority() != null) {
            normal.append(uri.getRawAuthority());
        }
        normal.append(withoutDotSegments(uri.getRawPath()));
        if (uri.getRawQuery() != null) {
            normal.append('?').append(uri.getRawQuery());
        }
        if (uri.getRawFragment() != null) {
            normal.append('#').append(uri.getRawFragment());
        }
        return normal.toString();
    }

    /**
     * {@code normalizedUri} up to its query or fragment: the object's location as a file system
     * sees it (scheme, authority, path).
     *
     * @param normalizedUri a URI from {@link #normalize}
     */
    public static String withoutQueryAndFragment(String normalizedUri) {
        int end = normalizedUri.length();
        int query = normalizedUri.indexOf('?');
        int fragment = normalizedUri.indexOf('#');
        if (query >= 0) {
            end = query;
        }
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        return normalizedUri.substring(0, end);
    }

    /** A prefix of a URI in the same normal form: lower-case scheme, authority always written. */
    static String normalizePrefix(String scheme, String rest) {
        String authority = rest.startsWith("/") && !rest.startsWith("//") ? "//" : "";
        return scheme.toLowerCase(Locale.ROOT) + authority + rest;
    }

    /** Removes {@code .} segments; a trailing one leaves its slash, as in RFC 3986 section 5.2.4. */
    private static String withoutDotSegments(String rawPath) {
        String[] segments = rawPath.split("/", -1);
        StringBuilder path = new StringBuilder(rawPath.length());
        for (int i = 0; i < segments.length; i++) {
            boolean last = i == segments.length - 1;
            if (segments[i].equals(".") && !last) {
                continue;
            }
            if (i > 0) {
                path.append('/');
            }
            if (!segments[i].equals(".")) {
                path.append(segments[i]);
            }
        }
        return path.toString();
    }
}
