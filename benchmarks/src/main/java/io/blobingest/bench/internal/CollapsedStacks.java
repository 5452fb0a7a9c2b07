package io.blobingest.bench.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * async-profiler's collapsed stacks ({@code frame;frame;... count}, one stack per line) as counts.
 * A profiler's dump is cumulative since its start, so the samples taken between two dumps are the
 * later dump minus the earlier one: that is how {@link ChildProfiler} cuts the steady phase out of
 * a whole run without stopping the profiler.
 */
final class CollapsedStacks {

    private CollapsedStacks() {}

    /**
     * The stacks of {@code later} with the counts of {@code earlier} taken off; stacks left with no
     * samples are dropped.
     *
     * @throws IllegalArgumentException if a line is not {@code stack count}, or {@code earlier} has
     *     more samples of a stack than {@code later} (they are not two dumps of one profile, in order)
     */
    static List<String> minus(List<String> later, List<String> earlier) {
        Map<String, Long> counts = counts(later, "later");
        counts(earlier, "earlier").forEach((stack, count) -> {
            long left = counts.getOrDefault(stack, 0L) - count;
            if (left < 0) {
                throw new IllegalArgumentException("the earlier dump has " + count + " samples of a stack the later"
                        + " has " + (left + count) + " of: not two dumps of one profile, in order: " + stack);
            }
            counts.put(stack, left);
        });
        List<String> lines = new ArrayList<>();
        counts.forEach((stack, count) -> {
            if (count > 0) {
                lines.add(stack + " " + count);
            }
        });
        return lines;
    }

    private static Map<String, Long> counts(List<String> lines, String which) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index);
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long count;
            try {
                count = space < 0 ? -1 : Long.parseLong(line.substring(space + 1));
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 0) {
                throw new IllegalArgumentException(which + " dump, line " + (index + 1)
                        + ": expected '<frame>;<frame>;... <count>', found '" + line + "'");
            }
            counts.merge(line.substring(0, space), count, Long::sum);
        }
        return counts;
    }
}
