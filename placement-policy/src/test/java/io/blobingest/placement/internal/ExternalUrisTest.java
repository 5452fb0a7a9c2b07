package io.blobingest.placement.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExternalUrisTest {

    @ParameterizedTest
    @CsvSource({
        "s3://bucket/a/b, s3://bucket/a/b",
        "S3://Bucket/a, s3://Bucket/a",
        "s3://bucket/./a/./b, s3://bucket/a/b",
        "s3://bucket/a/., s3://bucket/a/",
        "s3://bucket//a, s3://bucket//a",
        "s3://bucket, s3://bucket",
        "file:///data/x, file:///data/x",
        "file:/data/x, file:///data/x",
        "https://host:8443/x?sig=a%2Fb#part, https://host:8443/x?sig=a%2Fb#part",
        "gs://bucket/a%20b, gs://bucket/a%20b",
    })
    void normalizesOnlySchemeEmptyAuthorityAndDotSegments(String input, String expected) {
        assertThat(ExternalUris.normalize(input)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3://b/../x", "s3://b/a/..", "s3://b/a/%2e%2e/x", "file:/data/../etc"})
    void refusesParentSegments(String input) {
        assertThatThrownBy(() -> ExternalUris.normalize(input))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("blob.uri has a '..' path segment");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3://user@b/x", "s3://user:pw@b/x", "s3://@b/x"})
    void refusesUserinfo(String input) {
        assertThatThrownBy(() -> ExternalUris.normalize(input))
                .hasMessage("blob.uri has userinfo: credentials must not travel in a URI");
    }

    @ParameterizedTest
    @CsvSource({
        "s3://bucket/a, s3://bucket/a",
        "s3://bucket/a?X-Amz-Signature=s, s3://bucket/a",
        "s3://bucket/a#part, s3://bucket/a",
        "s3://bucket/a?q=1#part, s3://bucket/a",
        "s3://bucket/a%3Fb?q, s3://bucket/a%3Fb",
        "file:///x#f?g, file:///x",
    })
    void theLocationOfAnObjectEndsBeforeItsQueryOrFragment(String normalized, String location) {
        assertThat(ExternalUris.withoutQueryAndFragment(normalized)).isEqualTo(location);
    }
}
