package io.blobingest.kafka.internal;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * The two events by which the readers of a bounded source end their input together: {@link
 * JointEndReader} sends {@link InputEnded}, {@link JointEndEnumerator} answers every reader with
 * {@link EveryInputEnded} once all have sent it.
 */
final class JointEndEvents {

    private JointEndEvents() {}

    /** Reader to enumerator: this reader has read all its splits and holds back its end of input. */
    record InputEnded() implements SourceEvent {

        private static final long serialVersionUID = 1L;
    }

    /** Enumerator to readers: every reader has read all its splits; end the input now. */
    record EveryInputEnded() implements SourceEvent {

        private static final long serialVersionUID = 1L;
    }
}
