package io.blobingest.lance.internal;

import java.util.List;
import org.lance.FragmentMetadata;

/**
 * The Lance fragments written for one checkpoint of one job, not yet committed: they become one
 * Lance transaction whose properties name {@code jobId} and {@code checkpointId}.
 */
record PendingCommit(String jobId, long checkpointId, List<FragmentMetadata> fragments) {

    PendingCommit {
        fragments = List.copyOf(fragments);
    }
}
