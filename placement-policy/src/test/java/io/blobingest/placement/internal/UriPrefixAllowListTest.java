package io.blobingest.placement.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UriPrefixAllowListTest {

    private final UriPrefixAllowList allowList =
            new UriPrefixAllowList(List.of("S3://bucket", "file:/data/in/", "https://host/x"));

    @ParameterizedTest
    @CsvSource({
        "s3://bucket, true",
        "s3://bucket/key, true",
        "s3://bucket-other/key, false",
        "s3://bucket?versionId=1, true",
        "file:///data/in/a, true",
        "file:///data/in, false",
        "file:///data/inbox/a, false",
        "https://host/x#y, true",
        "https://host/xy, false",
        "gs://bucket/key, false",
    })
    void matchesPrefixesAtPathBoundaries(String uri, boolean allowed) {
        assertThat(allowList.allows(uri)).isEqualTo(allowed);
    }

    @Test
    void aSchemeAloneAllowsEveryUriOfThatScheme() {
        assertThat(new UriPrefixAllowList(List.of("s3://")).allows("s3://any/key"))
                .isTrue();
    }

    @Test
    void emptyListAllowsNothing() {
        assertThat(new UriPrefixAllowList(List.of()).allows("s3://bucket/key")).isFalse();
    }

    @Test
    void refusesPrefixesWithoutSchemeNamingTheirPosition() {
        assertThatThrownBy(() -> new UriPrefixAllowList(Arrays.asList("s3://ok/", "bucket/dir")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("allowed URI prefix #2 must be a scheme followed by a path");
        assertThatThrownBy(() -> new UriPrefixAllowList(Arrays.asList("s3:")))
                .hasMessageStartingWith("allowed URI prefix #1");
        assertThatThrownBy(() -> new UriPrefixAllowList(Arrays.asList((String) null)))
                .hasMessageStartingWith("allowed URI prefix #1");
    }
}
