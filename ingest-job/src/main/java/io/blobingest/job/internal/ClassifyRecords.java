package io.blobingest.job.internal;

import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ClassifiedRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.BlobTypes;
import io.blobingest.storage.ConfinedFileStorage;
import io.blobingest.storage.RefusedFileException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Validates and places every input record: on the main output a {@link PlacedBlob} ({@code Left})
 * or an {@link ExternalFetch} ({@code Right}, an external blob whose bytes must be fetched first),
 * or a {@link DeadLetter} on {@link #DEAD_LETTERS}. Never throws for bad input, so one bad record
 * cannot stall the stream.
 * Dead letters are counted where every stage's meet, in {@link CountDeadLetters}.
 */
@Internal
public final class ClassifyRecords extends ProcessFunction<BlobRecord, Either<PlacedBlob, ExternalFetch>> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", BlobTypes.DEAD_LETTER);
    public static final TypeInformation<Either<PlacedBlob, ExternalFetch>> OUTPUT_TYPE =
            new EitherTypeInfo<>(BlobTypes.PLACED_BLOB, BlobTypes.EXTERNAL_FETCH);

    private final BlobRecordClassifier classifier;
    private final ConfinedFileStorage localFiles;

    /**
     * @param allowedPrefixes {@code external.allowed-prefixes}, the classifier's: a {@code file:}
     *     reference is checked against them once more, through its links ({@link
     *     ConfinedFileStorage#check})
     */
    public ClassifyRecords(BlobRecordClassifier classifier, List<String> allowedPrefixes) {
        this.classifier = classifier;
        this.localFiles = new ConfinedFileStorage(allowedPrefixes);
    }

    @Override
    public void processElement(BlobRecord record, Context context, Collector<Either<PlacedBlob, ExternalFetch>> out) {
        ClassifiedRecord classified = classifier.classify(record);
        if (classified instanceof PlacedBlob placed && placed.placement() == Placement.EXTERNAL) {
            classified = checkedReference(placed);
        }
        if (classified instanceof PlacedBlob placed) {
            out.collect(Either.Left(placed));
        } else if (classified instanceof ExternalFetch fetch) {
            out.collect(Either.Right(fetch));
        } else if (classified instanceof DeadLetter deadLetter) {
            context.output(DEAD_LETTERS, deadLetter);
        }
    }

    /**
     * A reference ({@code blob.mode=reference}) is never read here, but readers will follow it: a
     * {@code file:} one must pass the same link check as a file the job reads, or a symbolic or hard
     * link inside an allowed directory would hand readers a file outside every allowed one.
     */
    private ClassifiedRecord checkedReference(PlacedBlob reference) {
        String location = reference.external().blobUri();
        try {
            localFiles.check(URI.create(location));
            return reference;
        } catch (RefusedFileException e) {
            return new DeadLetter(reference.record(), DeadLetterCode.URI_NOT_ALLOWED, e.getMessage());
        } catch (FileNotFoundException | NoSuchFileException e) {
            return new DeadLetter(reference.record(), DeadLetterCode.NOT_FOUND, e.getMessage());
        } catch (IOException | RuntimeException e) {
            return new DeadLetter(
                    reference.record(),
                    DeadLetterCode.URI_NOT_ALLOWED,
                    "the links of " + location + " could not be checked: " + e);
        }
    }
}
