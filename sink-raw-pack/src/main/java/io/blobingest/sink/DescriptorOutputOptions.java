package io.blobingest.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options that enable the further {@link DescriptorOutput}s this project ships in jars of their
 * own, defined here, beside the {@link DescriptorOutputFactory} SPI, so that a job without an
 * output's jar can still name the option and the jar it is missing.
 */
@PublicEvolving
public final class DescriptorOutputOptions {

    public static final ConfigOption<String> LANCE_DATASET_URI = ConfigOptions.key("sink.lance.dataset-uri")
            .stringType()
            .noDefaultValue()
            .withDescription("Where the Lance dataset of committed descriptors lives (a local path or an "
                    + "s3:// URI); unset: no Lance output. Created on first use, with file format 2.2 and "
                    + "sink.raw-pack.base-path registered as its external blob base. Its Blob v2 column references the "
                    + "committed Raw Pack entries and Dedicated sidecars in place.");

    public static final ConfigOption<String> LANCE_COLUMNS = ConfigOptions.key("sink.lance.columns")
            .stringType()
            .defaultValue("")
            .withDescription("Typed columns of the Lance dataset filled from input headers, comma-separated "
                    + "name:type=header items (types: string, int32, int64, float64, bool, timestamp), e.g. "
                    + "'robot_id:string=robot.id, seq:int64=frame.seq'. A record whose mapped header does not "
                    + "parse as its type is a bad-header dead letter; a missing header is a null. Columns go after "
                    + "the dataset's own; a dataset takes new ones only at its end. Needs sink.lance.dataset-uri.");

    /** The jar of module sink-lance, which carries the output {@link #LANCE_DATASET_URI} enables. */
    public static final String LANCE_JAR = "blob-ingest-lance.jar";

    private DescriptorOutputOptions() {}
}
