package io.blobingest.job.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JfrSummaryTest {

    @Test
    void groupsMethodsByTheFirstFourPartsOfTheirPackage() {
        assertThat(JfrSummary.packageOf("org.apache.kafka.common.record.DefaultRecord")).isEqualTo("org.apache.kafka.common");
        assertThat(JfrSummary.packageOf("java.util.zip.CRC32C")).isEqualTo("java.util.zip");
        assertThat(JfrSummary.packageOf("Main")).isEqualTo("(default package)");
    }
}
