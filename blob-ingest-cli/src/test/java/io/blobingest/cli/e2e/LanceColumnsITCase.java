package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.IngestJob;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.sink.RollPolicy;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;

/**
 * {@code sink.lance.columns} in the real job on a real broker: mapped headers become typed Lance
 * columns beside the input's Kafka timestamp, a filter on a mapped column and a timestamp range
 * returns exactly the inputs it should, and a record whose mapped header does not parse is a
 * {@code bad-header} dead letter, nothing lost.
 */
class LanceColumnsITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    private static final TestWorkload WORKLOAD = new TestWorkload(33, 400);
    private static final String COLUMNS = "seq:int64=seq, camera:string=camera, lane:int32=lane";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    @Test
    void mappedHeadersAreTypedColumnsAFilterSelectsAndABadOneIsADeadLetter() throws Exception {
        KAFKA.createTopic(JobTestEnvironment.INPUT_TOPIC, PARTITIONS);
        KAFKA.createTopic("columns-descriptors", 1);
        KAFKA.createTopic("columns-dead-letters", 1);
        Set<Integer> bad = IntStream.range(0, WORKLOAD.count())
                .filter(i -> i % 50 == 7)
                .boxed()
                .collect(Collectors.toCollection(TreeSet::new));
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < WORKLOAD.count(); i++) {
            ProducerRecord<byte[], byte[]> record = WORKLOAD.record(JobTestEnvironment.INPUT_TOPIC, PARTITIONS, i);
            if (bad.contains(i)) {
                record.headers().add(new RecordHeader("lane", "left".getBytes(StandardCharsets.UTF_8)));
            } else if (i % 2 == 0) {
                record.headers()
                        .add(new RecordHeader("lane", Integer.toString(i % 3).getBytes(StandardCharsets.UTF_8)));
            }
            records.add(record);
        }
        KAFKA.send(records);
        String datasetUri = dir.resolve("robots.lance").toString();
        Configuration config = JobTestEnvironment.jobConfiguration(
                KAFKA,
                "columns",
                RollPolicy.ON_CHECKPOINT,
                "columns-descriptors",
                "columns-dead-letters",
                dir.resolve("base"));
        config.set(LanceOutputOptions.DATASET_URI, datasetUri);
        config.set(LanceOutputOptions.COLUMNS, COLUMNS);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config);
        env.execute("typed Lance columns");

        Set<Integer> placed = IntStream.range(0, WORKLOAD.count())
                .filter(i -> !bad.contains(i))
                .boxed()
                .collect(Collectors.toSet());
        LanceDatasetRows.assertOneRowPerInput(WORKLOAD, placed, datasetUri, Map.of());
        assertThat(badHeaderDeadLetters())
                .as("inputs dead-lettered as bad-header")
                .isEqualTo(bad);
        long from = WORKLOAD.timestamp(100);
        long to = WORKLOAD.timestamp(300);
        assertThat(seqs(
                        datasetUri,
                        "camera = 'cam-3' AND \"timestamp\" BETWEEN to_timestamp_millis(" + from
                                + ") AND to_timestamp_millis(" + to + ")"))
                .as("inputs of camera 3 between the 100th and the 300th")
                .containsExactlyElementsOf(IntStream.rangeClosed(100, 300)
                        .filter(i -> i % 4 == 3 && !bad.contains(i))
                        .mapToObj(i -> (long) i)
                        .toList());
        assertThat(seqs(datasetUri, "lane = 2"))
                .containsExactlyElementsOf(IntStream.range(0, WORKLOAD.count())
                        .filter(i -> i % 2 == 0 && i % 3 == 2 && !bad.contains(i))
                        .mapToObj(i -> (long) i)
                        .toList());
    }

    private static Set<Integer> badHeaderDeadLetters() {
        Set<Integer> seqs = new TreeSet<>();
        for (ConsumerRecord<byte[], byte[]> record : KAFKA.drainCommitted("columns-dead-letters")) {
            assertThat(new String(record.headers().lastHeader(BlobHeaders.ERROR).value(), StandardCharsets.UTF_8))
                    .isEqualTo("bad-header");
            assertThat(new String(
                            record.headers()
                                    .lastHeader(BlobHeaders.ERROR_DETAIL)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .isEqualTo("header lane (column lane, int32): expected a decimal int32, found 'left'");
            seqs.add(Integer.parseInt(
                    new String(record.headers().lastHeader("seq").value(), StandardCharsets.UTF_8)));
        }
        return seqs;
    }

    private static List<Long> seqs(String datasetUri, String filter) throws Exception {
        List<Long> seqs = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = Dataset.open(datasetUri, allocator);
                ArrowReader reader = dataset.sql("SELECT seq FROM dataset WHERE " + filter + " ORDER BY seq")
                        .intoBatchRecords()) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                BigIntVector seq = (BigIntVector) root.getVector("seq");
                for (int i = 0; i < root.getRowCount(); i++) {
                    seqs.add(seq.get(i));
                }
            }
        }
        return seqs;
    }
}
