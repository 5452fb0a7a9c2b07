package io.blobingest.lance;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The main class of {@link LanceNativeThreadClassLoaderITCase}'s child JVM, whose class path holds
 * the test classes only: it loads Lance's natives from a class loader of its own over the class
 * path it is given (as Flink's user code class loader holds the {@code -C} jar), on a thread whose
 * context class loader is that loader, and reports the first uncaught exception of any thread.
 */
public final class LoadLanceInAUserCodeClassLoader {

    static final String LOADED = "Lance's natives loaded; the loading thread's context class loader: ";
    static final String UNCAUGHT = "uncaught exception in thread ";
    static final String NONE = "no uncaught exception within ";
    private static final long WAIT_SECONDS = 30;

    private LoadLanceInAUserCodeClassLoader() {}

    public static void main(String[] args) throws Exception {
        CountDownLatch uncaught = new CountDownLatch(1);
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.out.println(UNCAUGHT + "'" + thread.getName() + "':");
            e.printStackTrace(System.out);
            uncaught.countDown();
        });
        List<URL> urls = new ArrayList<>();
        for (String entry : args[0].split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        try (URLClassLoader userCode =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Thread loading = new Thread(() -> {
                try {
                    Class.forName("org.lance.JniLoader", true, userCode);
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("no Lance on " + args[0], e);
                }
                System.out.println(LOADED + Thread.currentThread().getContextClassLoader());
            });
            loading.setContextClassLoader(userCode);
            loading.start();
            loading.join();
            if (!uncaught.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                System.out.println(NONE + WAIT_SECONDS + " s");
            }
        }
    }
}
