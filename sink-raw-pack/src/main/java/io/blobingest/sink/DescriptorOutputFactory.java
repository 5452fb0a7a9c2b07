package io.blobingest.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Makes a further {@link DescriptorOutput} from the job's configuration; found with {@link
 * java.util.ServiceLoader} ({@code META-INF/services/io.blobingest.sink.DescriptorOutputFactory}),
 * so that a job jar without the output's module (and its dependencies) still builds and runs, and
 * adding the module's jar to the classpath is all it takes to enable it.
 */
@PublicEvolving
public interface DescriptorOutputFactory {

    /** The option whose presence in the configuration asks for this output. */
    String enablingOption();

    /** The output for {@code config}, in which {@link #enablingOption()} is set. */
    DescriptorOutput create(ReadableConfig config);
}
