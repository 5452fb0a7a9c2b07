package io.blobingest.cli.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.storage.S3Options;
import io.blobingest.storage.testing.InProgressUpload;
import io.blobingest.storage.testing.S3ServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link Leftovers} against a real S3 server: multipart uploads listed under the base only, and
 * removed idempotently, as two gc runs at once, or a writer cleaning up after itself, need.
 */
class S3LeftoversITCase {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @BeforeAll
    static void flinkFileSystemsOnTheServer() {
        S3.initializeFlinkFileSystems();
    }

    @Test
    void findListsTheMultipartUploadsUnderTheBaseOnly() throws IOException {
        String inside = initiateUpload("listed/set-0-0/10000000000000000000000000000000.blob");
        initiateUpload("listed-elsewhere/set-0-0/10000000000000000000000000000000.blob");

        List<Leftover> found;
        try (Leftovers leftovers = Leftovers.under(S3.uri("listed"), S3.flinkConfiguration())) {
            found = leftovers.find();
        }

        assertThat(found).singleElement().satisfies(upload -> {
            assertThat(upload.kind()).isEqualTo(Leftover.Kind.MULTIPART_UPLOAD);
            assertThat(upload.location()).isEqualTo(S3.uri("listed/set-0-0/10000000000000000000000000000000.blob"));
            assertThat(upload.uploadId()).isEqualTo(inside);
            assertThat(upload.since()).isPresent();
        });
    }

    @Test
    void anUploadAbortedSinceItWasListedCountsAsRemoved() throws IOException {
        String key = "aborted-twice/set-0-0/10000000000000000000000000000000.blob";
        String uploadId = initiateUpload(key);
        try (Leftovers firstRun = Leftovers.under(S3.uri("aborted-twice"), S3.flinkConfiguration());
                Leftovers secondRun = Leftovers.under(S3.uri("aborted-twice"), S3.flinkConfiguration())) {
            Leftover listedByFirst = firstRun.find().get(0);
            Leftover listedBySecond = secondRun.find().get(0);
            assertThat(List.of(listedByFirst.uploadId(), listedBySecond.uploadId()))
                    .containsOnly(uploadId);

            assertThat(firstRun.remove(listedByFirst)).isTrue();
            assertThat(S3.inProgressMultipartUploads()).doesNotContain(new InProgressUpload(key, uploadId));

            assertThat(secondRun.remove(listedBySecond))
                    .as("removed already, so done")
                    .isFalse();
            assertThat(secondRun.find()).isEmpty();
        }
    }

    @Test
    void aStaleUploadToACommittedKeyIsAbortedAndTheCommittedObjectStays() throws IOException {
        String set = "stale/set-0-0";
        String sidecar = set + "/10000000000000000000000000000000.blob";
        String manifest = "stale/_descriptors/set-0-0.arrow";
        putObject(sidecar, "committed bytes");
        putObject(manifest, "a committed manifest");
        String staleUpload = initiateUpload(sidecar);
        try (Leftovers leftovers = Leftovers.under(S3.uri("stale"), S3.flinkConfiguration())) {
            Leftover upload = leftovers.find().stream()
                    .filter(leftover -> leftover.kind() == Leftover.Kind.MULTIPART_UPLOAD)
                    .findFirst()
                    .orElseThrow();
            assertThat(leftovers.namedByCommittedManifest(upload)).isTrue();

            assertThat(leftovers.remove(upload)).isTrue();
        }
        assertThat(S3.inProgressMultipartUploads()).doesNotContain(new InProgressUpload(sidecar, staleUpload));
        assertThat(new String(S3.objectBytes(sidecar), StandardCharsets.UTF_8)).isEqualTo("committed bytes");
    }

    @Test
    void aWrongSecretKeyFailsNamingTheBaseButNeverTheKeys() {
        String wrongSecret = "not-the-secret-of-" + S3ServerExtension.ACCESS_KEY;
        Configuration config = S3.flinkConfiguration();
        config.set(S3Options.SECRET_KEY, wrongSecret);

        try (Leftovers leftovers = Leftovers.under(S3.uri("refused"), config)) {
            assertThatThrownBy(leftovers::find)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(S3.uri("refused/").toString())
                    .hasMessageNotContaining(wrongSecret)
                    .hasMessageNotContaining(S3ServerExtension.ACCESS_KEY);
        }
    }

    /** Writes a committed object through Flink's S3 file system, as the job's writers do. */
    private static void putObject(String key, String text) throws IOException {
        org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path(S3.uri(key));
        try (FSDataOutputStream out = path.getFileSystem().create(path, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String initiateUpload(String key) {
        try (S3Client client = client()) {
            return client.createMultipartUpload(
                            request -> request.bucket(S3.bucket()).key(key))
                    .uploadId();
        }
    }

    private static S3Client client() {
        return S3Client.builder()
                .endpointOverride(S3.endpoint())
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(S3ServerExtension.ACCESS_KEY, S3ServerExtension.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }
}
