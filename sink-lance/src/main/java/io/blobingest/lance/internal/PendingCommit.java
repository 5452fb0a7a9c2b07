package io.blobingest.lance.internal;

import java.util.List;
import org.lance.FragmentMetadata;

/**
 * The Lance fragments written for one checkpoint of one job into one dataset, not yet committed:
 * they become one Lance transaction on {@code datasetUri} whose properties name {@code jobId} and
 * {@code checkpointId}.
 *
 * @param datasetUri null when restored from a version that did not record it: the one dataset of
 *     {@code sink.lance.dataset-uri}
 */
record PendingCommit(String jobId, long checkpointId, String datasetUri, List<FragmentMetadata> fragments) {

    PendingCommit {
        fragments = List.copyOf(fragments);
    }
}
