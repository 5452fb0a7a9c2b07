package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;

class TransactionActivityTest {

    private static final List<String> PREFIXES = List.of("job-descriptors", "job-dead-letters");

    @Test
    void onlyIdsWithAPrefixFollowedByADashBelongToTheJob() {
        TransactionActivity activity = TransactionActivity.of(
                List.of(
                        listing("job-descriptors-0-3", TransactionState.ONGOING),
                        listing("job-dead-letters-1-3", TransactionState.EMPTY),
                        listing("job-descriptorsX-0-3", TransactionState.ONGOING),
                        listing("other-descriptors-0-3", TransactionState.ONGOING)),
                PREFIXES);

        assertThat(activity.states()).containsOnlyKeys("job-descriptors-0-3", "job-dead-letters-1-3");
    }

    @Test
    void aNewIdOrACommitIsASignOfLife() {
        TransactionActivity before =
                TransactionActivity.of(List.of(listing("job-descriptors-0-3", TransactionState.ONGOING)), PREFIXES);
        TransactionActivity after = TransactionActivity.of(
                List.of(
                        listing("job-descriptors-0-3", TransactionState.COMPLETE_COMMIT),
                        listing("job-descriptors-0-4", TransactionState.EMPTY)),
                PREFIXES);

        assertThat(after.signsOfLifeSince(before))
                .containsExactly("job-descriptors-0-3: Ongoing -> CompleteCommit", "job-descriptors-0-4: Empty");
    }

    @Test
    void aCrashedJobsTransactionTimingOutIsNoSignOfLife() {
        TransactionActivity before = TransactionActivity.of(
                List.of(
                        listing("job-descriptors-0-3", TransactionState.ONGOING),
                        listing("job-descriptors-1-3", TransactionState.ONGOING),
                        listing("job-dead-letters-0-2", TransactionState.COMPLETE_COMMIT)),
                PREFIXES);
        TransactionActivity after = TransactionActivity.of(
                List.of(
                        listing("job-descriptors-0-3", TransactionState.PREPARE_ABORT),
                        listing("job-descriptors-1-3", TransactionState.COMPLETE_ABORT),
                        listing("job-dead-letters-0-2", TransactionState.COMPLETE_COMMIT)),
                PREFIXES);

        assertThat(after.signsOfLifeSince(before)).isEmpty();
    }

    private static TransactionListing listing(String id, TransactionState state) {
        return new TransactionListing(id, 1, state);
    }
}
