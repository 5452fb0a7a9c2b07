package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class S3OptionsTest {

    @Test
    void defaultsFillOnlyWhatIsNotGiven() {
        Configuration given = new Configuration();
        given.setString("fs.s3a.experimental.input.fadvise", "sequential");

        Configuration effective = S3Options.withDefaults(given);

        assertThat(effective.toMap())
                .containsEntry("fs.s3a.experimental.input.fadvise", "sequential")
                .containsEntry("fs.s3a.directory.marker.retention", "keep");
    }

    @Test
    void defaultsAreWrittenAsRawKeysTheS3PluginReads() {
        Configuration effective = S3Options.withDefaults(new Configuration());

        assertThat(effective.keySet())
                .contains("fs.s3a.experimental.input.fadvise", "fs.s3a.directory.marker.retention");
        assertThat(effective.getString("fs.s3a.experimental.input.fadvise", null))
                .isEqualTo("random");
    }

    @Test
    void defaultsLeaveTheGivenConfigurationUntouched() {
        Configuration given = new Configuration();

        S3Options.withDefaults(given);

        assertThat(given.keySet()).isEmpty();
    }

    @Test
    void describeNamesTheSettingsButNeverTheKeys() {
        Configuration configuration = new Configuration();
        configuration.set(S3Options.ENDPOINT, "http://127.0.0.1:9000");
        configuration.set(S3Options.PATH_STYLE_ACCESS, true);
        configuration.set(S3Options.ACCESS_KEY, "AKIAEXAMPLEACCESS");
        configuration.set(S3Options.SECRET_KEY, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");

        String description = S3Options.describe(S3Options.withDefaults(configuration));

        assertThat(description)
                .contains(
                        "endpoint=http://127.0.0.1:9000",
                        "path-style=true",
                        "credentials=static keys",
                        "fs.s3a.experimental.input.fadvise=random")
                .doesNotContain("AKIAEXAMPLEACCESS", "wJalrXUtnFEMI");
    }

    @Test
    void legacyDottedKeyNamesCountAsGivenCredentials() {
        Configuration configuration = new Configuration();
        configuration.setString("s3.access.key", "AKIAEXAMPLEACCESS");

        assertThat(S3Options.describe(configuration)).contains("credentials=static keys");
    }
}
