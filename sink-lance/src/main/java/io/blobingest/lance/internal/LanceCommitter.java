package io.blobingest.lance.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.operation.Append;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lance output's single committer (parallelism 1), after Iceberg's Flink committer: the
 * fragments that reach it before checkpoint N's barrier become, when N completes, one Lance
 * {@code Append} transaction whose properties carry the job id and N. Until then they are in its
 * state, so a failure between the checkpoint and the commit loses nothing.
 *
 * <p>A commit is applied once: after a restore the committer looks up, per job, the highest
 * checkpoint already in the dataset ({@link LanceCommitHistory}) and commits only the restored
 * checkpoints above it, so a commit that succeeded just before a failure (or whose success was
 * never reported) is recognised and skipped. Checkpoints commit in order, one transaction each.
 *
 * <p>With {@code {topic}} in {@code sink.lance.dataset-uri} each topic's rows go to a dataset of
 * their own, and a checkpoint is one transaction per dataset that got rows; a failure between two
 * of them leaves the others to the restore, which recognises per dataset and job what is there.
 */
@Internal
public final class LanceCommitter extends AbstractStreamOperator<Void> implements OneInputStreamOperator<byte[], Void> {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(LanceCommitter.class);
    private static final PendingCommitSerializer SERIALIZER = new PendingCommitSerializer();

    private final LanceSettings settings;

    private transient BufferAllocator allocator;
    private transient ListState<byte[]> pendingState;
    /** Per checkpoint, one commit per dataset. */
    private transient NavigableMap<Long, List<PendingCommit>> pending;
    /** Per dataset, the fragments received since the last checkpoint. */
    private transient Map<String, List<FragmentMetadata>> sinceLastCheckpoint;

    private transient String jobId;
    private transient Counter transactionsCommitted;
    private transient Counter transactionsSkipped;

    public LanceCommitter(LanceSettings settings) {
        this.settings = settings;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        allocator = new RootAllocator();
        jobId = getRuntimeContext().getJobInfo().getJobId().toString();
        pending = new TreeMap<>();
        sinceLastCheckpoint = new LinkedHashMap<>();
        transactionsCommitted = getMetricGroup().counter("lanceTransactionsCommitted");
        transactionsSkipped = getMetricGroup().counter("lanceTransactionsAlreadyCommitted");
        pendingState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(
                        "lance-pending-commits", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        List<PendingCommit> restored = new ArrayList<>();
        for (byte[] bytes : pendingState.get()) {
            restored.add(SimpleVersionedSerialization.readVersionAndDeSerialize(SERIALIZER, bytes));
        }
        if (!settings.perTopic()) {
            LanceDatasets.prepare(settings, settings.datasetUri(), allocator);
        }
        commitRestored(restored);
    }

    @Override
    public void processElement(StreamRecord<byte[]> element) throws Exception {
        PendingCommitSerializer.WrittenFragments written =
                PendingCommitSerializer.deserializeFragments(element.getValue());
        sinceLastCheckpoint
                .computeIfAbsent(written.datasetUri(), uri -> new ArrayList<>())
                .addAll(written.fragments());
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (!sinceLastCheckpoint.isEmpty()) {
            long checkpointId = context.getCheckpointId();
            List<PendingCommit> commits = new ArrayList<>();
            sinceLastCheckpoint.forEach(
                    (uri, fragments) -> commits.add(new PendingCommit(jobId, checkpointId, uri, fragments)));
            pending.put(checkpointId, commits);
            sinceLastCheckpoint = new LinkedHashMap<>();
        }
        List<byte[]> serialized = new ArrayList<>();
        for (List<PendingCommit> commits : pending.values()) {
            for (PendingCommit commit : commits) {
                serialized.add(SimpleVersionedSerialization.writeVersionAndSerialize(SERIALIZER, commit));
            }
        }
        pendingState.update(serialized);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        NavigableMap<Long, List<PendingCommit>> due = pending.headMap(checkpointId, true);
        if (due.isEmpty()) {
            return;
        }
        // A failure here fails the task (Flink fails it when a notification throws); the due
        // commits stay in the last checkpoint's state, and the restored committer commits those of
        // them that no dataset holds yet.
        List<PendingCommit> dueCommits = new ArrayList<>();
        due.values().forEach(dueCommits::addAll);
        for (Map.Entry<String, List<PendingCommit>> dataset :
                byDataset(dueCommits).entrySet()) {
            try (Dataset opened = LanceDatasets.open(settings, dataset.getKey(), allocator)) {
                for (PendingCommit commit : dataset.getValue()) {
                    commit(opened, commit);
                }
            } catch (RuntimeException e) {
                throw new IOException(
                        "cannot commit checkpoints " + due.keySet() + " to Lance dataset " + dataset.getKey()
                                + "; their fragments stay in the checkpoint's state and are committed "
                                + "when it is restored",
                        e);
            }
        }
        due.clear();
    }

    /** {@code commits} (in checkpoint order) grouped by their dataset, each group in checkpoint order. */
    private Map<String, List<PendingCommit>> byDataset(List<PendingCommit> commits) {
        Map<String, List<PendingCommit>> byDataset = new LinkedHashMap<>();
        for (PendingCommit commit : commits) {
            byDataset
                    .computeIfAbsent(datasetOf(commit), uri -> new ArrayList<>())
                    .add(commit);
        }
        return byDataset;
    }

    /**
     * A commit's dataset; one restored from a version that recorded none is the one dataset of the
     * settings, and cannot be placed when the settings name one per topic.
     */
    private String datasetOf(PendingCommit commit) {
        if (commit.datasetUri() != null) {
            return commit.datasetUri();
        }
        if (settings.perTopic()) {
            throw new IllegalStateException("the restored Lance commit of checkpoint " + commit.checkpointId()
                    + " was written before datasets per topic and names no dataset: restore it with the "
                    + "sink.lance.dataset-uri it was written with, then change the setting");
        }
        return settings.datasetUri();
    }

    @Override
    public void close() throws Exception {
        if (allocator != null) {
            allocator.close();
        }
        super.close();
    }

    private void commitRestored(List<PendingCommit> restored) {
        restored.sort((a, b) -> Long.compare(a.checkpointId(), b.checkpointId()));
        for (Map.Entry<String, List<PendingCommit>> commits :
                byDataset(restored).entrySet()) {
            try (Dataset dataset = LanceDatasets.open(settings, commits.getKey(), allocator)) {
                Map<String, OptionalLong> lastCommitted = new HashMap<>();
                for (PendingCommit commit : commits.getValue()) {
                    OptionalLong last = lastCommitted.computeIfAbsent(
                            commit.jobId(), job -> LanceCommitHistory.lastCommittedCheckpoint(dataset, job));
                    if (last.isPresent() && commit.checkpointId() <= last.getAsLong()) {
                        LOG.info(
                                "Lance dataset {} already holds checkpoint {} of job {}; not committing it again",
                                commits.getKey(),
                                commit.checkpointId(),
                                commit.jobId());
                        transactionsSkipped.inc();
                    } else {
                        commit(dataset, commit);
                    }
                }
            }
        }
    }

    private void commit(Dataset dataset, PendingCommit commit) {
        dataset.checkoutLatest();
        try (Dataset committed = dataset.newTransactionBuilder()
                .operation(Append.builder().fragments(commit.fragments()).build())
                .transactionProperties(LanceCommitHistory.properties(commit))
                .build()
                .commit()) {
            transactionsCommitted.inc();
            LOG.info(
                    "Committed checkpoint {} of job {} to Lance dataset {} as version {} ({} fragments)",
                    commit.checkpointId(),
                    commit.jobId(),
                    datasetOf(commit),
                    committed.version(),
                    commit.fragments().size());
        }
    }
}
