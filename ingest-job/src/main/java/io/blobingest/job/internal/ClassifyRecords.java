package io.blobingest.job.internal;

import io.blobingest.kafka.BlobTypes;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ClassifiedRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.util.EnumMap;
import java.util.Map;
import io.blobingest.placement.DeadLetterCode;

/**
 * Validates and places every input record: a {@link PlacedBlob} on the main output, a {@link
 * DeadLetter} on {@link #DEAD_LETTERS}, or an {@link ExternalFetch} (an external blob to ingest)
 * on {@link #EXTERNAL_FETCHES}. Never throws for bad input, so one bad record cannot stall the
 * stream.
 */
public final class ClassifyRecords extends ProcessFunction<BlobRecord, PlacedBlob> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", BlobTypes.DEAD_LETTER);
    public static final OutputTag<ExternalFetch> EXTERNAL_FETCHES =
            new OutputTag<>("external-fetches", BlobTypes.EXTERNAL_FETCH);

    private final BlobRecordClassifier classifier;
    private transient Map<DeadLetterCode, Counter> deadLettersByCode;

    public ClassifyRecords(BlobRecordClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext openContext) {
        MetricGroup deadLetters = getRuntimeContext().getMetricGroup().addGroup("deadLetters");
        deadLettersByCode = new EnumMap<>(DeadLetterCode.class);
        for (DeadLetterCode code : DeadLetterCode.values()) {
            deadLettersByCode.put(code, deadLetters.counter(code.wireName()));
        }
    }

    @Override
    public void processElement(BlobRecord record, Context context, Collector<PlacedBlob> out) {
        ClassifiedRecord classified = classifier.classify(record);
        if (classified instanceof PlacedBlob placed) {
            out.collect(placed);
        } else if (classified instanceof DeadLetter deadLetter) {
            deadLettersByCode.get(deadLetter.code()).inc();
            context.output(DEAD_LETTERS, deadLetter);
        } else if (classified instanceof ExternalFetch fetch) {
            context.output(EXTERNAL_FETCHES, fetch);
        }
    }
}
