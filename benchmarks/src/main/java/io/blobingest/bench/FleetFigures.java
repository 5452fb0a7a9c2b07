package io.blobingest.bench;

/**
 * The fleet comparison ({@code --topics N}): the workload's records preloaded a second time, the same bytes,
 * round-robin over {@code topics} topics, and blob-ingest run on all of them as one job ({@code --input-topic
 * a,b,...}), bounded like its run on the one topic it is compared with.
 *
 * @param topics how many topics the records are spread over, each with as many partitions as the one topic has
 * @param contender the run on those topics; its name says how many
 */
public record FleetFigures(int topics, ContenderFigures contender) {

    public FleetFigures {
        if (topics < 2) {
            throw new IllegalArgumentException("a fleet is at least two topics, found " + topics);
        }
    }
}
