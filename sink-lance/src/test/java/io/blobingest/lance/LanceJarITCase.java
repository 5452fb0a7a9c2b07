package io.blobingest.lance;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.DescriptorOutputFactory;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code target/blob-ingest-lance.jar}, which a cluster adds to the job jar ({@code flink run -C}):
 * it alone supplies the Lance output to the job's {@link ServiceLoader} lookup, carries Lance and
 * its linux x86-64 natives, and none of what the job jar or Flink already hold.
 */
class LanceJarITCase {

    private static final Path JAR = Path.of("target/blob-ingest-lance.jar");
    private static final String SERVICES = "META-INF/services/" + DescriptorOutputFactory.class.getName();

    private static List<String> entries;

    @BeforeAll
    static void openJar() throws IOException {
        assertThat(JAR).as("the Lance jar, built by the package phase").isRegularFile();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            entries = jar.stream().map(ZipEntry::getName).toList();
        }
    }

    @Test
    void carriesTheLanceOutputLanceAndItsLinuxNatives() {
        assertThat(entries)
                .contains(
                        SERVICES,
                        "io/blobingest/lance/LanceDescriptorOutputFactory.class",
                        "io/blobingest/lance/internal/LanceCommitter.class",
                        "org/lance/Dataset.class",
                        "org/apache/arrow/c/Data.class");
        assertThat(entries).anyMatch(entry -> entry.contains("linux-x86-64") && entry.endsWith("liblance_jni.so"));
    }

    @Test
    void leavesTheJobJarsModulesArrowAndFlinkOut() {
        assertThat(entries)
                .noneMatch(entry -> entry.startsWith("io/blobingest/sink/")
                        || entry.startsWith("io/blobingest/objectlayer/")
                        || entry.startsWith("io/blobingest/storage/")
                        || entry.startsWith("org/apache/arrow/vector/")
                        || entry.startsWith("org/apache/arrow/memory/")
                        || entry.startsWith("org/apache/flink/")
                        || entry.startsWith("org/slf4j/"));
    }

    @Test
    void theJobsServiceLoaderFindsTheLanceOutputInThisJarAlone() throws Exception {
        try (URLClassLoader withJar = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, new WithoutLanceOutput())) {
            List<DescriptorOutputFactory> factories =
                    ServiceLoader.load(DescriptorOutputFactory.class, withJar).stream()
                            .map(ServiceLoader.Provider::get)
                            .toList();

            assertThat(factories)
                    .singleElement()
                    .satisfies(factory ->
                            assertThat(factory.getClass().getClassLoader()).isSameAs(withJar))
                    .extracting(DescriptorOutputFactory::enablingOption)
                    .isEqualTo("sink.lance.dataset-uri");
            Configuration config = new Configuration();
            config.setString("sink.lance.dataset-uri", "/data/robots.lance");
            config.set(RawPackSinkOptions.BASE_PATH, "/data/blobs");
            DescriptorOutput output = factories.get(0).create(config);
            assertThat(output.getClass().getName()).isEqualTo("io.blobingest.lance.LanceDescriptorOutput");
        }
    }

    /** This test's class path without this module's own classes: what the job jar holds. */
    private static final class WithoutLanceOutput extends ClassLoader {

        WithoutLanceOutput() {
            super(LanceJarITCase.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.blobingest.lance.")) {
                throw new ClassNotFoundException(name + " is in the Lance jar only");
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return name.equals(SERVICES) ? Collections.emptyEnumeration() : super.getResources(name);
        }
    }
}
