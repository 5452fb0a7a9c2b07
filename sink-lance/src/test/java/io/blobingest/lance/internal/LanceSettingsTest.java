package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LanceSettingsTest {

    @Test
    void itsTextNamesTheStorageOptionsWithoutTheirValues() {
        LanceSettings settings = new LanceSettings(
                "file:///data/blobs.lance",
                "file:///data/base",
                Map.of("aws_access_key_id", "AKIA", "aws_secret_access_key", "s3cr3t-canary"),
                List.of());

        assertThat(settings.toString())
                .contains("aws_secret_access_key", "file:///data/blobs.lance")
                .doesNotContain("s3cr3t-canary");
    }
}
