package io.blobingest.lance;

import io.blobingest.sink.DescriptorOutputOptions;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The options of the Lance dataset output ({@link LanceDescriptorOutput}). */
@PublicEvolving
public final class LanceOutputOptions {

    /** Defined beside the output SPI, where a job without this module still finds it. */
    public static final ConfigOption<String> DATASET_URI = DescriptorOutputOptions.LANCE_DATASET_URI;

    /** Defined beside the output SPI too: the job checks the mapped headers before placement. */
    public static final ConfigOption<String> COLUMNS = DescriptorOutputOptions.LANCE_COLUMNS;

    public static final ConfigOption<Map<String, String>> STORAGE_OPTIONS = ConfigOptions.key(
                    "sink.lance.storage-options")
            .mapType()
            .defaultValue(Map.of())
            .withDescription("Lance object store options (for example aws_region:us-east-1), added to those "
                    + "derived from the s3.* options (endpoint, path style, keys) when the dataset or the "
                    + "base is on s3://.");

    private LanceOutputOptions() {}
}
