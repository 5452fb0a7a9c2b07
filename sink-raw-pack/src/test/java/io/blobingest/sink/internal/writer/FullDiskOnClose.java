package io.blobingest.sink.internal.writer;

import java.io.IOException;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A real {@link RecoverableWriter} whose streams fail their plain {@code close()} as Flink's S3
 * stream does on a full disk (it flushes its local buffer file first): the stream is released,
 * then {@code No space left on device} is thrown. Writing, persisting and closing for commit work.
 */
public final class FullDiskOnClose implements RecoverableWriter {

    private final RecoverableWriter writer;

    public FullDiskOnClose(RecoverableWriter writer) {
        this.writer = writer;
    }

    @Override
    public RecoverableFsDataOutputStream open(Path path) throws IOException {
        return new Stream(writer.open(path));
    }

    @Override
    public RecoverableFsDataOutputStream recover(ResumeRecoverable resumable) throws IOException {
        return new Stream(writer.recover(resumable));
    }

    @Override
    public boolean requiresCleanupOfRecoverableState() {
        return writer.requiresCleanupOfRecoverableState();
    }

    @Override
    public boolean cleanupRecoverableState(ResumeRecoverable resumable) throws IOException {
        return writer.cleanupRecoverableState(resumable);
    }

    @Override
    public RecoverableFsDataOutputStream.Committer recoverForCommit(CommitRecoverable recoverable) throws IOException {
        return writer.recoverForCommit(recoverable);
    }

    @Override
    public SimpleVersionedSerializer<CommitRecoverable> getCommitRecoverableSerializer() {
        return writer.getCommitRecoverableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<ResumeRecoverable> getResumeRecoverableSerializer() {
        return writer.getResumeRecoverableSerializer();
    }

    @Override
    public boolean supportsResume() {
        return writer.supportsResume();
    }

    private static final class Stream extends ForwardingRecoverableStream {

        Stream(RecoverableFsDataOutputStream stream) {
            super(stream);
        }

        @Override
        public void close() throws IOException {
            super.close();
            throw new IOException("No space left on device");
        }
    }
}
