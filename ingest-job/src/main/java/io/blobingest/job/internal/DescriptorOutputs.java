package io.blobingest.job.internal;

import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.DescriptorOutputFactory;
import io.blobingest.sink.DescriptorOutputOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The further descriptor outputs the configuration asks for, found through {@link
 * DescriptorOutputFactory} on the classpath. The job jar carries none of them (the Lance output
 * brings 187 MB of Lance natives); one the configuration asks for but the classpath lacks fails the
 * job's build, naming the jar to add, rather than leaving the output out.
 */
@Internal
public final class DescriptorOutputs {

    /** An output this project ships in its own jar. */
    private record Known(String option, String output, String jar) {}

    private static final List<Known> KNOWN = List.of(new Known(
            DescriptorOutputOptions.LANCE_DATASET_URI.key(),
            "the Lance dataset output",
            DescriptorOutputOptions.LANCE_JAR + " (module sink-lance; see docs/lance.md)"));

    private DescriptorOutputs() {}

    /** The outputs enabled in {@code config}, from the factories {@code classLoader} finds. */
    public static List<DescriptorOutput> fromConfig(ReadableConfig config, ClassLoader classLoader) {
        Map<String, DescriptorOutputFactory> factories = new HashMap<>();
        for (DescriptorOutputFactory factory : ServiceLoader.load(DescriptorOutputFactory.class, classLoader)) {
            DescriptorOutputFactory other = factories.putIfAbsent(factory.enablingOption(), factory);
            if (other != null && other.getClass() != factory.getClass()) {
                throw new IllegalStateException("two descriptor outputs are enabled by " + factory.enablingOption()
                        + ": " + other.getClass().getName() + " and "
                        + factory.getClass().getName());
            }
        }
        for (Known known : KNOWN) {
            if (isSet(config, known.option()) && !factories.containsKey(known.option())) {
                throw new IllegalArgumentException(known.option() + " is set, but " + known.output()
                        + " is not on the job's classpath: add " + known.jar()
                        + ", with flink run -C <its URL, "
                        + "reachable from every node>, or run the job with the blob-ingest command line,"
                        + " which carries it");
            }
        }
        List<DescriptorOutput> outputs = new ArrayList<>();
        factories.forEach((option, factory) -> {
            if (isSet(config, option)) {
                outputs.add(factory.create(config));
            }
        });
        return outputs;
    }

    private static boolean isSet(ReadableConfig config, String option) {
        return config.getOptional(ConfigOptions.key(option).stringType().noDefaultValue())
                .filter(value -> !value.isBlank())
                .isPresent();
    }
}
