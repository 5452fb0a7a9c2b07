package io.blobingest.job.bench.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a contender's CPU went, from its flight recording's execution samples: the methods on top
 * of the stack most often (self time) and the packages those methods are in.
 */
public final class JfrSummary {

    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final int PACKAGE_DEPTH = 4;

    private JfrSummary() {}

    /** Lines for people: the samples counted, then the top {@code limit} methods and packages by self time. */
    public static List<String> topFrames(Path recording, int limit) throws IOException {
        Map<String, Integer> methods = new HashMap<>();
        Map<String, Integer> packages = new HashMap<>();
        int samples = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals(EXECUTION_SAMPLE) || event.getStackTrace() == null
                        || event.getStackTrace().getFrames().isEmpty()) {
                    continue;
                }
                samples++;
                RecordedFrame top = event.getStackTrace().getFrames().get(0);
                RecordedMethod method = top.getMethod();
                String type = method.getType().getName();
                methods.merge(type + "." + method.getName(), 1, Integer::sum);
                packages.merge(packageOf(type), 1, Integer::sum);
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%,d execution samples in %s", samples, recording));
        lines.add("  top methods (self):");
        lines.addAll(top(methods, samples, limit));
        lines.add("  top packages (self):");
        lines.addAll(top(packages, samples, limit));
        return lines;
    }

    /** The first {@value #PACKAGE_DEPTH} parts of a class's package: {@code org.apache.kafka.common}. */
    static String packageOf(String className) {
        String[] parts = className.split("\\.");
        int depth = Math.min(PACKAGE_DEPTH, parts.length - 1);
        return depth <= 0 ? "(default package)" : String.join(".", List.of(parts).subList(0, depth));
    }

    private static List<String> top(Map<String, Integer> counts, int samples, int limit) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .map(entry -> String.format(Locale.ROOT, "  %6.1f%%  %s", 100.0 * entry.getValue() / samples, entry.getKey()))
                .toList();
    }
}
