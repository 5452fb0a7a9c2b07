package io.blobingest.job.gc.internal;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for requests without a body (header-based, as in "Authenticating
 * Requests: Using the Authorization Header"). The request's path and query must already be
 * URI-encoded once, as S3 expects them.
 */
public final class SigV4Signer {

    public static final String EMPTY_PAYLOAD_SHA256 = sha256Hex(new byte[0]);

    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final S3Credentials credentials;
    private final String region;
    private final String service;

    public SigV4Signer(S3Credentials credentials, String region, String service) {
        this.credentials = credentials;
        this.region = region;
        this.service = service;
    }

    /**
     * The headers to send with the request: {@code headers} plus {@code x-amz-date}, {@code
     * x-amz-security-token} for temporary credentials, and {@code Authorization}. {@code Host} is
     * signed as the URI's authority but not returned (the HTTP client sends it).
     *
     * @param headers further headers to sign, e.g. {@code x-amz-content-sha256}
     */
    public Map<String, String> sign(String method, URI uri, Map<String, String> headers, String payloadSha256, Instant now) {
        String amzDate = AMZ_DATE.format(now);
        String date = amzDate.substring(0, 8);
        Map<String, String> toSend = new LinkedHashMap<>(headers);
        toSend.put("x-amz-date", amzDate);
        credentials.sessionToken().ifPresent(token -> toSend.put("x-amz-security-token", token));

        TreeMap<String, String> signed = new TreeMap<>();
        signed.put("host", uri.getRawAuthority());
        toSend.forEach((name, value) -> signed.put(name.toLowerCase(Locale.ROOT), value.trim()));
        String signedHeaders = String.join(";", signed.keySet());
        String canonicalRequest = String.join("\n",
                method,
                uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath(),
                canonicalQuery(uri.getRawQuery()),
                signed.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue() + "\n").collect(Collectors.joining()),
                signedHeaders,
                payloadSha256);
        String scope = date + "/" + region + "/" + service + "/aws4_request";
        String stringToSign = String.join("\n",
                ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + credentials.secretKey()).getBytes(StandardCharsets.UTF_8), date);
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        String signature = HexFormat.of().formatHex(hmac(key, stringToSign));
        toSend.put("Authorization", ALGORITHM + " Credential=" + credentials.accessKey() + "/" + scope
                + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature);
        return toSend;
    }

    /** Query parameters sorted by name, then value; a parameter without value gets {@code =}. */
    static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<String[]> pairs = new ArrayList<>();
        for (String parameter : rawQuery.split("&")) {
            int equals = parameter.indexOf('=');
            pairs.add(equals < 0
                    ? new String[] {parameter, ""}
                    : new String[] {parameter.substring(0, equals), parameter.substring(equals + 1)});
        }
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        return pairs.stream().map(p -> p[0] + "=" + p[1]).collect(Collectors.joining("&"));
    }

    /** RFC 3986 percent-encoding of everything but unreserved characters (and {@code /} if kept). */
    public static String uriEncode(String text, boolean keepSlash) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~' || (keepSlash && c == '/')) {
                encoded.append(c);
            } else {
                encoded.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        return encoded.toString();
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
