package io.blobingest.kafka.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * The states of a job's transactional ids at one moment, as the transaction coordinators list
 * them. A running job leaves a trace between two moments a checkpoint interval or more apart: the
 * Kafka sink names each checkpoint's transaction anew ({@code <prefix>-<subtask>-<checkpoint>}),
 * so new ids appear, and its transactions commit. A crashed job's ids only change by the
 * coordinator aborting a lingering transaction once it times out, which is no sign of life.
 */
@Internal
public record TransactionActivity(Map<String, TransactionState> states) {

    private static final Set<TransactionState> ABORTING =
            Set.of(TransactionState.PREPARE_ABORT, TransactionState.COMPLETE_ABORT);

    /** The listings whose transactional id starts with one of {@code prefixes} followed by {@code -}. */
    public static TransactionActivity of(Collection<TransactionListing> listings, List<String> prefixes) {
        Map<String, TransactionState> states = new TreeMap<>();
        for (TransactionListing listing : listings) {
            if (prefixes.stream().anyMatch(prefix -> listing.transactionalId().startsWith(prefix + "-"))) {
                states.put(listing.transactionalId(), listing.state());
            }
        }
        return new TransactionActivity(states);
    }

    public boolean isEmpty() {
        return states.isEmpty();
    }

    /**
     * What in this later snapshot shows a live producer since {@code earlier}: ids that were not
     * there, and ids whose state moved to anything but an abort. Each entry reads {@code id: state}.
     */
    public List<String> signsOfLifeSince(TransactionActivity earlier) {
        List<String> signs = new ArrayList<>();
        states.forEach((id, state) -> {
            TransactionState before = earlier.states.get(id);
            if (before == null || (before != state && !ABORTING.contains(state))) {
                signs.add(id + ": " + (before == null ? "" : before + " -> ") + state);
            }
        });
        return signs;
    }
}
