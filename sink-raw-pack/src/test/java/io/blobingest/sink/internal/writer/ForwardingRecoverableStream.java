package io.blobingest.sink.internal.writer;

import java.io.IOException;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter.ResumeRecoverable;

/** A real file system stream passed through, for tests that make one of its steps fail. */
public class ForwardingRecoverableStream extends RecoverableFsDataOutputStream {

    private final RecoverableFsDataOutputStream stream;

    public ForwardingRecoverableStream(RecoverableFsDataOutputStream stream) {
        this.stream = stream;
    }

    @Override
    public void write(int b) throws IOException {
        stream.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        stream.write(bytes, offset, length);
    }

    @Override
    public long getPos() throws IOException {
        return stream.getPos();
    }

    @Override
    public void flush() throws IOException {
        stream.flush();
    }

    @Override
    public void sync() throws IOException {
        stream.sync();
    }

    @Override
    public ResumeRecoverable persist() throws IOException {
        return stream.persist();
    }

    @Override
    public Committer closeForCommit() throws IOException {
        return stream.closeForCommit();
    }

    @Override
    public void close() throws IOException {
        stream.close();
    }
}
