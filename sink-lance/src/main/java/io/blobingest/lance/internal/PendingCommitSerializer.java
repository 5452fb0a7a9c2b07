package io.blobingest.lance.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;

/**
 * The Lance committer's state: one {@link PendingCommit} per checkpoint and dataset not yet known
 * committed. Also carries the writer's fragments to the committer ({@link #serializeFragments}).
 *
 * <p>VERSION_2: {@code utf job_id | i64 checkpoint_id | utf dataset_uri | fragments}.
 *
 * <p>VERSION_1: {@code utf job_id | i64 checkpoint_id | fragments}, fragments = {@code i32 count},
 * each {@code i32 id | i64 physical_rows | i32 file_count}, each file {@code utf path | i32[]
 * fields | i32[] column_indices | i32 major | i32 minor | bool has_size [i64 size] | bool has_base
 * [i32 base_id]} (an array is {@code i32 length} then its items). Only what Lance's writer sets on
 * a new fragment is kept: it has no deletion file, row id metadata or version metadata yet, and a
 * fragment with any of them is refused rather than silently cut short.
 */
final class PendingCommitSerializer implements SimpleVersionedSerializer<PendingCommit> {

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    static final int CURRENT_VERSION = VERSION_2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PendingCommit commit) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeUTF(commit.jobId());
        out.writeLong(commit.checkpointId());
        out.writeUTF(commit.datasetUri());
        writeFragments(out, commit.fragments());
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public PendingCommit deserialize(int version, byte[] serialized) throws IOException {
        requireKnown(version);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        String jobId = in.readUTF();
        long checkpointId = in.readLong();
        String datasetUri = version == VERSION_1 ? null : in.readUTF();
        return new PendingCommit(jobId, checkpointId, datasetUri, readFragments(in));
    }

    /** Fragments of one dataset, as the writer sends them to the committer. */
    record WrittenFragments(String datasetUri, List<FragmentMetadata> fragments) {}

    /** {@code i32 version | utf dataset_uri | fragments}. */
    static byte[] serializeFragments(String datasetUri, List<FragmentMetadata> fragments) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(CURRENT_VERSION);
        out.writeUTF(datasetUri);
        writeFragments(out, fragments);
        out.flush();
        return bytes.toByteArray();
    }

    static WrittenFragments deserializeFragments(byte[] serialized) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int version = in.readInt();
        requireKnown(version);
        String datasetUri = version == VERSION_1 ? null : in.readUTF();
        return new WrittenFragments(datasetUri, readFragments(in));
    }

    private static void requireKnown(int version) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("unknown Lance pending commit version " + version + ", this reader knows " + VERSION_1
                    + " and " + VERSION_2);
        }
    }

    private static void writeFragments(DataOutputStream out, List<FragmentMetadata> fragments) throws IOException {
        out.writeInt(fragments.size());
        for (FragmentMetadata fragment : fragments) {
            if (fragment.getDeletionFile() != null
                    || fragment.getRowIdMeta() != null
                    || fragment.getCreatedAtVersionMeta() != null
                    || fragment.getLastUpdatedAtVersionMeta() != null) {
                throw new IOException("fragment " + fragment.getId() + " carries deletion, row id or version "
                        + "metadata, which a newly written fragment does not have: " + fragment);
            }
            out.writeInt(fragment.getId());
            out.writeLong(fragment.getPhysicalRows());
            out.writeInt(fragment.getFiles().size());
            for (DataFile file : fragment.getFiles()) {
                out.writeUTF(file.getPath());
                writeInts(out, file.getFields());
                writeInts(out, file.getColumnIndices());
                out.writeInt(file.getFileMajorVersion());
                out.writeInt(file.getFileMinorVersion());
                out.writeBoolean(file.getFileSizeBytes() != null);
                if (file.getFileSizeBytes() != null) {
                    out.writeLong(file.getFileSizeBytes());
                }
                out.writeBoolean(file.getBaseId().isPresent());
                if (file.getBaseId().isPresent()) {
                    out.writeInt(file.getBaseId().get());
                }
            }
        }
    }

    private static List<FragmentMetadata> readFragments(DataInputStream in) throws IOException {
        int count = in.readInt();
        List<FragmentMetadata> fragments = new ArrayList<>(count);
        for (int f = 0; f < count; f++) {
            int id = in.readInt();
            long physicalRows = in.readLong();
            int fileCount = in.readInt();
            List<DataFile> files = new ArrayList<>(fileCount);
            for (int i = 0; i < fileCount; i++) {
                String path = in.readUTF();
                int[] fields = readInts(in);
                int[] columnIndices = readInts(in);
                int major = in.readInt();
                int minor = in.readInt();
                Long size = in.readBoolean() ? in.readLong() : null;
                Integer baseId = in.readBoolean() ? in.readInt() : null;
                files.add(new DataFile(path, fields, columnIndices, major, minor, size, baseId));
            }
            fragments.add(new FragmentMetadata(id, files, physicalRows, null, null));
        }
        if (in.available() > 0) {
            throw new IOException("Lance pending commit has " + in.available() + " bytes after its last fragment");
        }
        return fragments;
    }

    private static void writeInts(DataOutputStream out, int[] values) throws IOException {
        out.writeInt(values.length);
        for (int value : values) {
            out.writeInt(value);
        }
    }

    private static int[] readInts(DataInputStream in) throws IOException {
        int[] values = new int[in.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readInt();
        }
        return values;
    }
}
