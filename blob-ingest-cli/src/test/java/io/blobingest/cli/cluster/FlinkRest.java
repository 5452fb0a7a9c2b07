package io.blobingest.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The JobManager's REST API (the endpoints the web UI uses), as far as the cluster test reads it. */
final class FlinkRest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
    private final ObjectMapper json = new ObjectMapper();
    private final URI base;

    FlinkRest(String host, int port) {
        this.base = URI.create("http://" + host + ":" + port + "/");
    }

    /** The resource ids of the TaskManagers registered with the ResourceManager. */
    Set<String> taskManagers() throws IOException, InterruptedException {
        Set<String> ids = new TreeSet<>();
        get("taskmanagers")
                .path("taskmanagers")
                .forEach(tm -> ids.add(tm.path("id").asText()));
        return ids;
    }

    /** The JobManager's effective configuration ({@code /jobmanager/config}), the ports it bound included. */
    Map<String, String> jobManagerConfig() throws IOException, InterruptedException {
        Map<String, String> entries = new TreeMap<>();
        get("jobmanager/config")
                .forEach(entry -> entries.put(
                        entry.path("key").asText(), entry.path("value").asText()));
        return entries;
    }

    /** The ids of the jobs the cluster knows, in any state. */
    Set<String> jobs() throws IOException, InterruptedException {
        Set<String> ids = new TreeSet<>();
        get("jobs/overview").path("jobs").forEach(job -> ids.add(job.path("jid").asText()));
        return ids;
    }

    String jobState(String jobId) throws IOException, InterruptedException {
        return get("jobs/" + jobId).path("state").asText();
    }

    /**
     * The resource ids of the TaskManagers on which a subtask of the job is running now, over all
     * its vertices; empty while the job is not running everywhere (deploying, restarting).
     */
    Set<String> taskManagersRunning(String jobId) throws IOException, InterruptedException {
        Set<String> ids = new TreeSet<>();
        for (JsonNode vertex : get("jobs/" + jobId).path("vertices")) {
            if (!vertex.path("status").asText().equals("RUNNING")) {
                return Set.of();
            }
            for (JsonNode tm : get("jobs/" + jobId + "/vertices/"
                            + vertex.path("id").asText() + "/taskmanagers")
                    .path("taskmanagers")) {
                if (!tm.path("status").asText().equals("RUNNING")) {
                    return Set.of();
                }
                ids.add(tm.path("taskmanager-id").asText());
            }
        }
        return ids;
    }

    /** The job's checkpoint statistics: {@code counts}, {@code latest.completed}, {@code latest.restored}. */
    JsonNode checkpoints(String jobId) throws IOException, InterruptedException {
        return get("jobs/" + jobId + "/checkpoints");
    }

    void cancel(String jobId) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(base.resolve("jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()));
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return json.readTree(send(HttpRequest.newBuilder(base.resolve(path)).GET()));
    }

    private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException(response.request().method() + " " + response.uri() + ": HTTP " + response.statusCode()
                    + " " + response.body());
        }
        return response.body();
    }
}
