package io.blobingest.job.gc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Signatures checked against AWS's published examples. */
class SigV4SignerTest {

    @Test
    void signsTheS3GetObjectExampleOfTheAwsDocumentation() {
        // "Signature Calculations for the Authorization Header", Example: GET Object.
        SigV4Signer signer = new SigV4Signer(
                new S3Credentials("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", Optional.empty()),
                "us-east-1", "s3");

        Map<String, String> headers = signer.sign("GET", URI.create("https://examplebucket.s3.amazonaws.com/test.txt"),
                Map.of("Range", "bytes=0-9", "x-amz-content-sha256", SigV4Signer.EMPTY_PAYLOAD_SHA256),
                SigV4Signer.EMPTY_PAYLOAD_SHA256, Instant.parse("2013-05-24T00:00:00Z"));

        assertThat(headers).containsEntry("x-amz-date", "20130524T000000Z");
        assertThat(headers.get("Authorization")).isEqualTo("AWS4-HMAC-SHA256"
                + " Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                + " Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    }

    @Test
    void sortsQueryParametersAsTheSignatureTestSuiteDoes() {
        // AWS Signature Version 4 test suite, get-vanilla-query-order-key-case.
        SigV4Signer signer = new SigV4Signer(
                new S3Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", Optional.empty()),
                "us-east-1", "service");

        Map<String, String> headers = signer.sign("GET",
                URI.create("https://example.amazonaws.com/?Param2=value2&Param1=value1"), Map.of(),
                SigV4Signer.EMPTY_PAYLOAD_SHA256, Instant.parse("2015-08-30T12:36:00Z"));

        assertThat(headers.get("Authorization")).endsWith(
                "SignedHeaders=host;x-amz-date, Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    }

    @Test
    void canonicalQueryGivesAValuelessParameterAnEqualsSign() {
        assertThat(SigV4Signer.canonicalQuery("uploads&prefix=blobs%2F")).isEqualTo("prefix=blobs%2F&uploads=");
    }

    @Test
    void uriEncodeKeepsUnreservedCharactersAndOptionallySlashes() {
        assertThat(SigV4Signer.uriEncode("a b/_c~.-ü", true)).isEqualTo("a%20b/_c~.-%C3%BC");
        assertThat(SigV4Signer.uriEncode("a/b", false)).isEqualTo("a%2Fb");
    }

    @Test
    void credentialsNeverShowTheirKeys() {
        S3Credentials credentials = new S3Credentials("ACCESS-KEY-X", "SECRET-KEY-Y", Optional.of("TOKEN-Z"));

        assertThat(credentials.toString()).doesNotContain("ACCESS-KEY-X", "SECRET-KEY-Y", "TOKEN-Z");
    }
}
