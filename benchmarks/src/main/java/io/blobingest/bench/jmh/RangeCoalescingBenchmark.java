package io.blobingest.bench.jmh;

import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.internal.ByteSpan;
import io.blobingest.objectlayer.internal.RangeCoalescer;
import io.blobingest.objectlayer.pack.RawPackFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The batch reader's read scheduling ({@link RangeCoalescer#schedule}) for one {@code readAll}
 * batch of {@code rangeCount} pack entries spread over {@link #PACKS} packs, with the Object
 * Layer's default hole limit (8 KiB) and max merged range (16 MiB): drop duplicates, sort by
 * offset, merge across small holes, cut long spans. It runs once per object per batch on the
 * reader's critical path, before the first payload byte is requested.
 *
 * <p>The coalescer is internal, so this benchmark sits in its package (as its unit test does)
 * rather than widening its visibility; it reads nothing, so nothing public measures it alone.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RangeCoalescingBenchmark extends ShortRunDefaults {

    private static final int PACKS = 4;
    private static final int ENTRIES_PER_PACK = 4096;
    /** Entries of 1 to 16 KiB, about 34 MiB per pack: holes around the 8 KiB limit, spans past 16 MiB. */
    private static final int MIN_ENTRY_SIZE = 1024;

    private static final int MAX_ENTRY_SIZE = 16 * 1024;

    /**
     * Ranges wanted from all packs together, drawn at random with repeats (exact sharing): 1,000
     * leave mostly large holes, 10,000 want most entries and merge into long spans.
     */
    @Param({"1000", "10000"})
    public int rangeCount;

    private final RangeCoalescer coalescer =
            new RangeCoalescer(ObjectLayer.DEFAULT_HOLE_LIMIT, ObjectLayer.DEFAULT_MAX_MERGED_RANGE);
    private List<List<ByteSpan>> wantedPerPack;

    @Setup
    public void drawRanges() {
        SplittableRandom random = new SplittableRandom(42);
        List<ByteSpan[]> packs = new ArrayList<>();
        wantedPerPack = new ArrayList<>();
        for (int p = 0; p < PACKS; p++) {
            packs.add(entriesOfOnePack(random));
            wantedPerPack.add(new ArrayList<>());
        }
        for (int i = 0; i < rangeCount; i++) {
            int p = random.nextInt(PACKS);
            wantedPerPack.get(p).add(packs.get(p)[random.nextInt(ENTRIES_PER_PACK)]);
        }
    }

    private static ByteSpan[] entriesOfOnePack(SplittableRandom random) {
        ByteSpan[] entries = new ByteSpan[ENTRIES_PER_PACK];
        long offset = RawPackFormat.HEADER_LENGTH;
        for (int i = 0; i < ENTRIES_PER_PACK; i++) {
            entries[i] = new ByteSpan(offset, random.nextInt(MIN_ENTRY_SIZE, MAX_ENTRY_SIZE + 1));
            offset = entries[i].end();
        }
        return entries;
    }

    /** Schedules every pack's ranges, as one batch does. */
    @Benchmark
    public void scheduleBatch(Blackhole schedules) {
        for (List<ByteSpan> wanted : wantedPerPack) {
            schedules.consume(coalescer.schedule(wanted));
        }
    }
}
