package io.blobingest.job.gc.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The two S3 calls Flink's file system has no API for: ListMultipartUploads and
 * AbortMultipartUpload, over Java's HTTP client with Signature Version 4.
 */
public final class S3RestClient {

    /** An upload that was initiated and neither completed nor aborted. */
    public record MultipartUpload(String key, String uploadId, Optional<Instant> initiated) {}

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final S3ClientSettings settings;
    private final SigV4Signer signer;
    private final HttpClient http;
    private final Clock clock;

    public S3RestClient(S3ClientSettings settings, Clock clock) {
        this.settings = settings;
        this.signer = new SigV4Signer(settings.credentials(), settings.region(), "s3");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        this.clock = clock;
    }

    /** Every multipart upload in progress in {@code bucket} whose key starts with {@code prefix}. */
    public List<MultipartUpload> listMultipartUploads(String bucket, String prefix) throws IOException {
        List<MultipartUpload> uploads = new ArrayList<>();
        SortedMap<String, String> query = new TreeMap<>(Map.of("uploads", "", "prefix", prefix));
        while (true) {
            Element result = xml(send("GET", bucket, "", query), bucket).getDocumentElement();
            for (Element upload : children(result, "Upload")) {
                String key = text(upload, "Key");
                // Filtered here too: some S3 implementations ignore the prefix parameter.
                if (key.startsWith(prefix)) {
                    uploads.add(new MultipartUpload(key, text(upload, "UploadId"), instant(text(upload, "Initiated"))));
                }
            }
            if (!Boolean.parseBoolean(text(result, "IsTruncated"))) {
                return uploads;
            }
            query.put("key-marker", text(result, "NextKeyMarker"));
            query.put("upload-id-marker", text(result, "NextUploadIdMarker"));
        }
    }

    /** Aborts one upload: its parts are deleted, the key is left as it is. */
    public void abortMultipartUpload(String bucket, String key, String uploadId) throws IOException {
        send("DELETE", bucket, key, new TreeMap<>(Map.of("uploadId", uploadId)));
    }

    private byte[] send(String method, String bucket, String key, SortedMap<String, String> query) throws IOException {
        URI uri = uri(bucket, key, query);
        Map<String, String> headers = signer.sign(method, uri,
                Map.of("x-amz-content-sha256", SigV4Signer.EMPTY_PAYLOAD_SHA256), SigV4Signer.EMPTY_PAYLOAD_SHA256,
                clock.instant());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(request::header);
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during " + method + " " + describe(bucket, key), e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("S3 " + method + " " + describe(bucket, key) + " (" + query.keySet() + ") at "
                    + settings.endpoint() + " failed: HTTP " + response.statusCode() + " " + errorOf(response.body()));
        }
        return response.body();
    }

    private URI uri(String bucket, String key, SortedMap<String, String> query) {
        URI endpoint = settings.endpoint();
        String path = SigV4Signer.uriEncode(key, true);
        String authority = endpoint.getRawAuthority();
        if (settings.pathStyle()) {
            path = "/" + SigV4Signer.uriEncode(bucket, false) + "/" + path;
        } else {
            authority = bucket + "." + authority;
            path = "/" + path;
        }
        String rawQuery = query.entrySet().stream()
                .map(e -> SigV4Signer.uriEncode(e.getKey(), false) + "=" + SigV4Signer.uriEncode(e.getValue(), false))
                .collect(Collectors.joining("&"));
        return URI.create(endpoint.getScheme() + "://" + authority + path + "?" + rawQuery);
    }

    private static String describe(String bucket, String key) {
        return "s3://" + bucket + "/" + key;
    }

    /** S3's error code and message from an error body, or a note that there was none. */
    private static String errorOf(byte[] body) {
        try {
            Element error = parse(body).getDocumentElement();
            return text(error, "Code") + ": " + text(error, "Message");
        } catch (IOException e) {
            return "(no S3 error document)";
        }
    }

    private static Document xml(byte[] body, String bucket) throws IOException {
        try {
            return parse(body);
        } catch (IOException e) {
            throw new IOException("unreadable ListMultipartUploads answer for bucket " + bucket + ": " + e.getMessage(), e);
        }
    }

    private static Document parse(byte[] body) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(body));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> elements = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                elements.add(element);
            }
        }
        return elements;
    }

    private static String text(Element parent, String name) {
        List<Element> matches = children(parent, name);
        return matches.isEmpty() ? "" : matches.get(0).getTextContent().trim();
    }

    private static Optional<Instant> instant(String text) {
        try {
            return text.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
