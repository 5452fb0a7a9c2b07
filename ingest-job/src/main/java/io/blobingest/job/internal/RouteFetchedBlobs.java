package io.blobingest.job.internal;

import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.PlacedBlob;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;

/**
 * Splits the fetch stage's output like {@link ClassifyRecords} splits its own: placed blobs on
 * the main output, dead letters on {@link ClassifyRecords#DEAD_LETTERS}.
 */
public final class RouteFetchedBlobs extends ProcessFunction<Either<PlacedBlob, DeadLetter>, PlacedBlob> {

    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(Either<PlacedBlob, DeadLetter> fetched, Context context, Collector<PlacedBlob> out) {
        if (fetched.isLeft()) {
            out.collect(fetched.left());
        } else {
            context.output(ClassifyRecords.DEAD_LETTERS, fetched.right());
        }
    }
}
