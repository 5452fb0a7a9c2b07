package io.blobingest.lance;

import static org.assertj.core.api.Assertions.assertThat;

import io.questdb.jar.jni.JarJniLoader;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;

/**
 * Why Lance 7.0.0 logs an uncaught {@code NoClassDefFoundError: org/lance/ipc/AsyncScanner} on
 * every TaskManager (docs/lance.md, "What an operator must know on a cluster"), and why the job
 * cannot prevent it: a child JVM whose system class path lacks Lance loads Lance's natives from a
 * class loader of its own (as Flink's user code class loader holds the {@code -C} jar), on a thread
 * whose context class loader is that loader. 7.0.0's {@code JNI_OnLoad} starts the {@code
 * lance-jni-dispatcher} thread, which attaches to the JVM and calls JNI {@code FindClass} itself; on
 * a native thread with no Java frame, {@code FindClass} asks the system class loader, whatever
 * loader or thread loaded the library. The class is never found, and the thread dies with the
 * uncaught error. When a Lance release resolves the class in {@code JNI_OnLoad} instead
 * (lance-format/lance#6946), this test fails: lift the caveat in docs/lance.md then.
 */
class LanceNativeThreadClassLoaderITCase {

    @Test
    void lance700sDispatcherThreadLooksForItsClassWithTheSystemClassLoaderWhateverLoadedTheNatives(@TempDir Path dir)
            throws Exception {
        String lance = String.join(File.pathSeparator, jarOf(Dataset.class), jarOf(JarJniLoader.class));
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        jarOf(LoadLanceInAUserCodeClassLoader.class),
                        LoadLanceInAUserCodeClassLoader.class.getName(),
                        lance)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(child.waitFor(2, TimeUnit.MINUTES))
                .as("the child JVM exited")
                .isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();

        assertThat(output)
                .as("the child's output")
                .contains(LoadLanceInAUserCodeClassLoader.LOADED + "java.net.URLClassLoader")
                .contains(LoadLanceInAUserCodeClassLoader.UNCAUGHT)
                .contains("java.lang.NoClassDefFoundError: org/lance/ipc/AsyncScanner")
                .contains("ClassLoaders$AppClassLoader.loadClass")
                .contains("panicked at src/dispatcher.rs");
    }

    private static String jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }
}
