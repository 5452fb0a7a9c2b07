package io.blobingest.sink.internal.state;

import org.apache.flink.annotation.Internal;

/**
 * One part of a writer subtask's checkpointed state: a blob set that stays open across the
 * checkpoint, or the objects exact sharing remembers. Flink may hand the parts of several subtasks
 * to one after a rescale.
 */
@Internal
public sealed interface WriterState permits BlobSetWriterState, SharedObjectsState {}
