package io.blobingest.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a contender's CPU went, from async-profiler's collapsed stacks (recorded with {@code threads},
 * dumped with {@code ann}): one line per distinct stack, {@code [thread tid=N];outer;...;top count}, Java
 * frames suffixed {@code _[j]}, {@code _[i]}, {@code _[0]} or {@code _[1]}, kernel frames {@code _[k]},
 * native frames bare.
 *
 * <p>Every sample lands in one category: all of a GC or JIT compiler thread's samples are that
 * thread's kind (its page faults are the collector's cost too); on the other threads the frame on
 * top decides: kernel, Java (by package group) or other JVM/native code (the interpreter, runtime
 * stubs, libc, Flink's and Kafka's native libraries).
 *
 * <p>Every sample also has a thread role: what the thread is for (fetching from Kafka, running an
 * operator chain, compiling, collecting, starting up), in CPU seconds at {@link #SAMPLE_INTERVAL}
 * per sample. Roles separate the per-byte work of a contender from its fixed cost.
 */
final class ProfileSummary {

    static final String KERNEL = "kernel";
    static final String GC = "GC threads";
    static final String JIT = "JIT compiler threads";
    static final String NATIVE = "other JVM/native";
    static final String JAVA = "Java: ";
    static final String JDK = "JDK (java.*, javax.*, jdk.*, sun.*, com.sun.*)";

    /** The profiler's sampling interval, of CPU time per thread: what one sample stands for. */
    static final Duration SAMPLE_INTERVAL = Duration.ofMillis(10);

    static final String ROLE_KAFKA_FETCH = "Kafka fetch (KafkaSource fetcher threads, consume's consumer threads)";
    static final String ROLE_TASK = "Flink task threads (operator chains)";
    static final String ROLE_MAIN = "main thread (start-up, job submission, the contender's own work)";
    static final String ROLE_OTHER = "other threads (Kafka producers and admin, Flink runtime, MiniCluster)";
    /** {@code ConsumeContender} names its threads so. */
    static final String CONSUMER_THREAD_PREFIX = "kafka-consumer-";

    private static final String FETCHER_THREAD_PREFIX = "Source Data Fetcher for ";
    private static final Pattern TASK_THREAD = Pattern.compile(".* \\(\\d+/\\d+\\)#\\d+");

    private static final Pattern LINE = Pattern.compile("(.*) (\\d+)");
    private static final Pattern THREAD = Pattern.compile("\\[(.*?)(?: tid=\\d+)?]");
    private static final Pattern JAVA_FRAME = Pattern.compile("(.*)_\\[[ji01]]");
    private static final String KERNEL_SUFFIX = "_[k]";
    private static final List<String> JDK_PREFIXES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");
    // Native thread names are cut at 15 characters: "C2 CompilerThre".
    private static final List<String> GC_THREADS = List.of("GC Thread", "G1 ");
    private static final List<String> JIT_THREADS = List.of("C1 Compiler", "C2 Compiler");

    private final Map<String, Long> categories = new HashMap<>();
    private final Map<String, Long> kernelEntries = new HashMap<>();
    private final Map<String, Long> callers = new HashMap<>();
    private final Map<String, Long> selfFrames = new HashMap<>();
    private final Map<String, Long> threads = new HashMap<>();
    private final Map<String, Long> roles = new HashMap<>();
    private long samples;

    private ProfileSummary() {}

    /** @throws IllegalArgumentException at a line that is not {@code stack count} */
    static ProfileSummary of(List<String> collapsedStacks) {
        ProfileSummary summary = new ProfileSummary();
        for (int index = 0; index < collapsedStacks.size(); index++) {
            String line = collapsedStacks.get(index);
            if (line.isBlank()) {
                continue;
            }
            Matcher matcher = LINE.matcher(line);
            if (!matcher.matches()) {
                throw new IllegalArgumentException("collapsed stacks line " + (index + 1)
                        + ": expected '<frame>;<frame>;... <count>', found '" + line + "'");
            }
            summary.add(List.of(matcher.group(1).split(";")), Long.parseLong(matcher.group(2)));
        }
        return summary;
    }

    private void add(List<String> stack, long count) {
        samples += count;
        Matcher threadFrame = THREAD.matcher(stack.get(0));
        String fullThread = threadFrame.matches() ? threadFrame.group(1) : "(thread not recorded)";
        String thread = shortThreadName(fullThread);
        List<String> frames = threadFrame.matches() ? stack.subList(1, stack.size()) : stack;
        threads.merge(thread, count, Long::sum);
        roles.merge(role(fullThread), count, Long::sum);
        String top = frames.isEmpty() ? "(no frames)" : frames.get(frames.size() - 1);
        selfFrames.merge(readable(top), count, Long::sum);
        categories.merge(category(fullThread, top), count, Long::sum);
        if (top.endsWith(KERNEL_SUFFIX)) {
            kernelEntries.merge(userFrameBelowKernel(frames), count, Long::sum);
        }
        String caller = callerPackage(frames);
        if (caller != null) {
            callers.merge(caller, count, Long::sum);
        }
    }

    /**
     * The package group of the innermost Java frame outside the JDK: the code that asked for the
     * socket read or the copy the JDK, the kernel or native code then did. The JDK if no other Java
     * frame is on the stack; null if no Java frame is.
     */
    private static String callerPackage(List<String> frames) {
        boolean jdk = false;
        for (int i = frames.size() - 1; i >= 0; i--) {
            Matcher java = JAVA_FRAME.matcher(frames.get(i));
            if (java.matches()) {
                String group = packageGroup(java.group(1));
                if (!group.equals(JDK)) {
                    return group;
                }
                jdk = true;
            }
        }
        return jdk ? JDK : null;
    }

    /** Flink names a task's threads after its whole operator chain; the first and last operator say which. */
    static String shortThreadName(String name) {
        String[] operators = name.split(" -> ");
        return operators.length <= 2 ? name : operators[0] + " -> ... -> " + operators[operators.length - 1];
    }

    /**
     * {@link #GC}, {@link #JIT}, {@link #ROLE_KAFKA_FETCH}, {@link #ROLE_TASK}, {@link #ROLE_MAIN} or {@link
     * #ROLE_OTHER}.
     */
    static String role(String thread) {
        if (GC_THREADS.stream().anyMatch(thread::startsWith)) {
            return GC;
        }
        if (JIT_THREADS.stream().anyMatch(thread::startsWith)) {
            return JIT;
        }
        if (thread.startsWith(FETCHER_THREAD_PREFIX) || thread.startsWith(CONSUMER_THREAD_PREFIX)) {
            return ROLE_KAFKA_FETCH;
        }
        if (TASK_THREAD.matcher(thread).matches()) {
            return ROLE_TASK;
        }
        return thread.equals("main") ? ROLE_MAIN : ROLE_OTHER;
    }

    private static String category(String thread, String top) {
        String role = role(thread);
        if (role.equals(GC) || role.equals(JIT)) {
            return role;
        }
        if (top.endsWith(KERNEL_SUFFIX)) {
            return KERNEL;
        }
        Matcher java = JAVA_FRAME.matcher(top);
        return java.matches() ? JAVA + packageGroup(java.group(1)) : NATIVE;
    }

    /** The user-space frame that entered the kernel (a libc call, a page-faulting copy), or the thread's root. */
    private static String userFrameBelowKernel(List<String> frames) {
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (!frames.get(i).endsWith(KERNEL_SUFFIX)) {
                return readable(frames.get(i));
            }
        }
        return "(kernel only: interrupts, scheduler)";
    }

    /**
     * {@code org/apache/kafka/common/record/DefaultRecord.readFrom} to {@code org.apache.kafka}: three
     * parts under {@code org.apache}, two elsewhere, the JDK as one group.
     */
    static String packageGroup(String javaFrame) {
        String dotted = javaFrame.replace('/', '.');
        if (JDK_PREFIXES.stream().anyMatch(dotted::startsWith)) {
            return JDK;
        }
        String[] parts = dotted.split("\\.");
        // The last two parts are the class and the method.
        int depth = Math.min(dotted.startsWith("org.apache.") ? 3 : 2, parts.length - 2);
        return depth <= 0
                ? "(default package)"
                : String.join(".", List.of(parts).subList(0, depth));
    }

    private static String readable(String frame) {
        Matcher java = JAVA_FRAME.matcher(frame);
        return java.matches() ? java.group(1).replace('/', '.') : frame;
    }

    long samples() {
        return samples;
    }

    /** CPU time of the threads of {@code role}: {@link #ROLE_KAFKA_FETCH}, {@link #ROLE_TASK}, ... */
    Duration cpu(String role) {
        return SAMPLE_INTERVAL.multipliedBy(roles.getOrDefault(role, 0L));
    }

    /** The share of all samples in {@code category}, 0 to 1: {@link #KERNEL}, {@code "Java: org.apache.kafka"}, ... */
    double share(String category) {
        return samples == 0 ? 0 : (double) categories.getOrDefault(category, 0L) / samples;
    }

    /** The report of CPU samples; see {@link #lines(int, boolean)}. */
    List<String> lines(int limit) {
        return lines(limit, false);
    }

    /**
     * The report: categories first (then a blank line), then the details, each list cut at {@code
     * limit}.
     *
     * @param wallClock the samples are wall-clock ones (every thread, waiting included), not CPU
     */
    List<String> lines(int limit, boolean wallClock) {
        String measure = wallClock ? "wall-clock time" : "CPU";
        List<String> lines = new ArrayList<>();
        lines.add("where the " + measure + " went (GC and JIT threads whole; elsewhere by the frame on top):");
        lines.addAll(top(categories, Integer.MAX_VALUE));
        lines.add("");
        lines.add(measure + " by thread role (one sample = " + SAMPLE_INTERVAL.toMillis() + " ms):");
        byCount(roles)
                .forEach(entry -> lines.add(String.format(
                        Locale.ROOT,
                        "  %6.1f s %6.1f%%  %s",
                        cpu(entry.getKey()).toMillis() / 1000.0,
                        100.0 * entry.getValue() / samples,
                        entry.getKey())));
        section(
                lines,
                "kernel time by the user-space frame that entered the kernel (% of all samples):",
                kernelEntries,
                limit);
        section(
                lines,
                "by the innermost Java frame outside the JDK, the JDK, kernel and native code it called included:",
                callers,
                limit);
        section(lines, "top self frames:", selfFrames, limit);
        section(lines, "top threads:", threads, limit);
        return lines;
    }

    private void section(List<String> lines, String title, Map<String, Long> counts, int limit) {
        lines.add("");
        lines.add(title);
        lines.addAll(top(counts, limit));
    }

    private List<String> top(Map<String, Long> counts, int limit) {
        return byCount(counts)
                .limit(limit)
                .map(entry ->
                        String.format(Locale.ROOT, "  %6.1f%%  %s", 100.0 * entry.getValue() / samples, entry.getKey()))
                .toList();
    }

    /** Most samples first, ties by name. */
    private static Stream<Map.Entry<String, Long>> byCount(Map<String, Long> counts) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()));
    }
}
