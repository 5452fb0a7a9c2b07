package io.blobingest.lance;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.sink.DescriptorOutputFactory;
import io.blobingest.sink.DescriptorOutputOptions;
import io.blobingest.sink.RawPackSinkOptions;
import java.util.List;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** The job finds the Lance output through {@link ServiceLoader}, keyed by {@code sink.lance.dataset-uri}. */
class LanceDescriptorOutputFactoryTest {

    @Test
    void serviceLoaderFindsTheLanceOutputEnabledByItsDatasetUri() {
        List<DescriptorOutputFactory> factories = ServiceLoader.load(DescriptorOutputFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();

        assertThat(factories)
                .singleElement()
                .isInstanceOf(LanceDescriptorOutputFactory.class)
                .extracting(DescriptorOutputFactory::enablingOption)
                .isEqualTo("sink.lance.dataset-uri");
        Configuration config = new Configuration();
        config.set(LanceOutputOptions.DATASET_URI, "/data/robots.lance");
        config.set(RawPackSinkOptions.BASE_PATH, "/data/blobs");
        assertThat(factories.get(0).create(config)).isInstanceOf(LanceDescriptorOutput.class);
    }

    @Test
    void theDatasetUriIsTheOptionDefinedBesideTheOutputSpi() {
        assertThat(LanceOutputOptions.DATASET_URI)
                .as("one definition, which a job without this module names too")
                .isSameAs(DescriptorOutputOptions.LANCE_DATASET_URI);
    }
}
