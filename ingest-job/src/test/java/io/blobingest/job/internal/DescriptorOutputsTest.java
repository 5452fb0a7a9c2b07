package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** How the job finds its further descriptor outputs, and what it says when one is missing. */
class DescriptorOutputsTest {

    private static final String SERVICES = "META-INF/services/io.blobingest.sink.DescriptorOutputFactory";

    /** A class path without any descriptor output module, as the slim job jar is. */
    private static final ClassLoader WITHOUT_OUTPUTS = new ClassLoader(DescriptorOutputsTest.class.getClassLoader()) {
        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return name.equals(SERVICES) ? Collections.emptyEnumeration() : super.getResources(name);
        }
    };

    @Test
    void withoutTheLanceOptionNoOutputIsNeeded() {
        assertThat(DescriptorOutputs.fromConfig(new Configuration(), WITHOUT_OUTPUTS))
                .isEmpty();
    }

    @Test
    void theLanceOptionWithoutTheLanceJarFailsTheBuildNamingTheJar() {
        Configuration config = new Configuration();
        config.setString("sink.lance.dataset-uri", "/data/robots.lance");

        assertThatThrownBy(() -> DescriptorOutputs.fromConfig(config, WITHOUT_OUTPUTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "sink.lance.dataset-uri is set, but the Lance dataset output is not on the job's classpath")
                .hasMessageContaining("blob-ingest-lance.jar")
                .hasMessageContaining("flink run -C");
    }
}
