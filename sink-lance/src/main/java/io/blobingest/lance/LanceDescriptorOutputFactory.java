package io.blobingest.lance;

import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.DescriptorOutputFactory;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/** Finds the Lance dataset output for a job with {@code sink.lance.dataset-uri} set. */
@PublicEvolving
public final class LanceDescriptorOutputFactory implements DescriptorOutputFactory {

    @Override
    public String enablingOption() {
        return LanceOutputOptions.DATASET_URI.key();
    }

    @Override
    public DescriptorOutput create(ReadableConfig config) {
        return LanceDescriptorOutput.fromConfig(config);
    }
}
