package io.blobingest.lance;

import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The options of the Lance dataset output ({@link LanceDescriptorOutput}). */
public final class LanceOutputOptions {

    public static final ConfigOption<String> DATASET_URI = ConfigOptions.key("sink.lance.dataset-uri")
            .stringType()
            .noDefaultValue()
            .withDescription("Where the Lance dataset of committed descriptors lives (a local path or an "
                    + "s3:// URI); unset: no Lance output. Created on first use, with file format 2.2 and "
                    + "sink.raw-pack.base-path registered as its external blob base. Its Blob v2 column references the "
                    + "committed Raw Pack entries and Dedicated sidecars in place.");

    public static final ConfigOption<Map<String, String>> STORAGE_OPTIONS = ConfigOptions.key(
                    "sink.lance.storage-options")
            .mapType()
            .defaultValue(Map.of())
            .withDescription("Lance object store options (for example aws_region:us-east-1), added to those "
                    + "derived from the s3.* options (endpoint, path style, keys) when the dataset or the "
                    + "base is on s3://.");

    private LanceOutputOptions() {}
}
