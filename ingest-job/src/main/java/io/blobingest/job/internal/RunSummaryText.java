package io.blobingest.job.internal;

import io.blobingest.job.RunSummary;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.placement.DeadLetterCode;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.flink.annotation.Internal;

/** {@link RunSummary} as the {@code run}, {@code backfill} and {@code demo} commands print it. */
@Internal
public final class RunSummaryText {

    private RunSummaryText() {}

    /**
     * One fact per line; the {@code shared} line only when a descriptor was shared, the {@code
     * sharing index} line whenever its size is known (sharing was on), even if nothing was shared.
     */
    public static String format(RunSummary summary) {
        Map<BlobKind, RunSummary.KindTotals> kinds = summary.kinds();
        StringBuilder text = new StringBuilder();
        line(
                text,
                "run summary: %d descriptors in %d blob sets, %s",
                summary.descriptors(),
                summary.blobSets(),
                seconds(summary.elapsed()));
        line(
                text,
                "  inline     %,10d blobs %10s",
                kinds.get(BlobKind.INLINE).blobs(),
                size(kinds.get(BlobKind.INLINE).bytes()));
        line(
                text,
                "  packed     %,10d blobs %10s in %d packs, average %s, %.1f%% of the %s target",
                kinds.get(BlobKind.PACKED).blobs(),
                size(kinds.get(BlobKind.PACKED).bytes()),
                summary.packs(),
                size(summary.averagePackBytes()),
                100 * summary.packFillRatio(),
                size(summary.packTargetBytes()));
        line(
                text,
                "  dedicated  %,10d blobs %10s in %d sidecars",
                kinds.get(BlobKind.DEDICATED).blobs(),
                size(kinds.get(BlobKind.DEDICATED).bytes()),
                summary.dedicatedSidecars());
        if (summary.sharedBlobs() > 0) {
            line(
                    text,
                    "  shared     %,10d blobs %10s not stored again (exact sharing)",
                    summary.sharedBlobs(),
                    size(summary.sharedBytes()));
        }
        summary.sharingIndex()
                .ifPresent(index -> line(
                        text,
                        "  sharing index %,d objects remembered (at most %,d per subtask)",
                        index.entries(),
                        index.perSubtaskLimit()));
        line(text, "  external   %,10d references", kinds.get(BlobKind.EXTERNAL).blobs());
        line(text, "  dead letters %d%s", summary.deadLetterTotal(), deadLetterCodes(summary.deadLetters()));
        line(text, "  throughput %.1f blobs/s, %.2f MiB/s", summary.blobsPerSecond(), summary.mebibytesPerSecond());
        return text.toString();
    }

    /** Binary units, one decimal: {@code 512 B}, {@code 64.0 KiB}, {@code 1.0 GiB}. */
    public static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    private static String deadLetterCodes(Map<DeadLetterCode, Long> deadLetters) {
        if (deadLetters.isEmpty()) {
            return "";
        }
        StringJoiner codes = new StringJoiner(", ", ": ", "");
        deadLetters.forEach((code, count) -> codes.add(code.wireName() + " " + count));
        return codes.toString();
    }

    private static void line(StringBuilder text, String format, Object... args) {
        text.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
