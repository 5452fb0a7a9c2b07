package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileSummaryTest {

    /** 20 samples: 8 kernel, 2 GC, 1 JIT, 6 Java (3 packages), 3 native; as async-profiler writes them. */
    private static final List<String> COLLAPSED = List.of(
            "[Source: Kafka (1/2)#0"
                    + " tid=101];java/lang/Thread.run_[j];org/apache/kafka/clients/consumer/KafkaConsumer.poll_[j];"
                    + "sun/nio/ch/SocketChannelImpl.read_[j];__libc_recv;"
                    + "entry_SYSCALL_64_after_hwframe_[k];tcp_recvmsg_[k] 5",
            "[Sink: Writer (1/2)#0 tid=102];java/lang/Thread.run_[j];io/blobingest/sink/internal/PackWriter.write_[j];"
                    + "sun/nio/ch/FileDispatcherImpl.pwrite0_[j];__pwrite64;copy_user_enhanced_fast_string_[k] 3",
            "[GC Thread#0 tid=20];start_thread;G1ParScanThreadState::trim_queue;asm_exc_page_fault_[k] 1",
            "[G1 Conc#0 tid=21];start_thread;G1ConcurrentMark::mark_from_roots 1",
            "[C2 CompilerThre tid=22];start_thread;C2Compiler::compile_method 1",
            "[Source: Kafka (1/2)#0"
                    + " tid=101];java/lang/Thread.run_[j];org/apache/kafka/common/record/DefaultRecord.readFrom_[j] 2",
            "[Sink: Writer (1/2)#0 tid=102];java/lang/Thread.run_[j];io/blobingest/sink/internal/PackWriter.write_[0]"
                    + " 1",
            "[Sink: Writer (1/2)#0 tid=102];java/lang/Thread.run_[j];java/util/zip/CRC32C.updateBytes_[i] 1",
            "[flink-pekko.actor"
                    + " tid=103];java/lang/Thread.run_[j];org/apache/flink/runtime/rpc/RpcEndpoint.runAsync_[1] 2",
            "[VM Thread tid=23];start_thread;VMThread::run 2",
            "[Sink: Writer (1/2)#0"
                    + " tid=102];java/lang/Thread.run_[j];java/nio/ByteBuffer.put_[j];__memmove_avx_unaligned_erms 1",
            "");

    @Test
    void kernelFramesOnTopCountAsKernelOnApplicationThreads() {
        ProfileSummary summary = ProfileSummary.of(COLLAPSED);

        assertThat(summary.samples()).isEqualTo(20);
        assertThat(summary.share(ProfileSummary.KERNEL)).isCloseTo(8 / 20.0, within(1e-9));
    }

    @Test
    void gcAndJitThreadsCountWholeEvenInTheKernel() {
        ProfileSummary summary = ProfileSummary.of(COLLAPSED);

        assertThat(summary.share(ProfileSummary.GC)).isCloseTo(2 / 20.0, within(1e-9));
        assertThat(summary.share(ProfileSummary.JIT)).isCloseTo(1 / 20.0, within(1e-9));
    }

    @Test
    void javaFramesOnTopCountByPackageGroupWhateverTheirCompiler() {
        ProfileSummary summary = ProfileSummary.of(COLLAPSED);

        assertThat(summary.share(ProfileSummary.JAVA + "org.apache.kafka")).isCloseTo(2 / 20.0, within(1e-9));
        assertThat(summary.share(ProfileSummary.JAVA + "io.blobingest")).isCloseTo(1 / 20.0, within(1e-9));
        assertThat(summary.share(ProfileSummary.JAVA + ProfileSummary.JDK)).isCloseTo(1 / 20.0, within(1e-9));
        assertThat(summary.share(ProfileSummary.JAVA + "org.apache.flink")).isCloseTo(2 / 20.0, within(1e-9));
    }

    @Test
    void nativeFramesOnTopOfOtherThreadsCountAsOtherJvmOrNative() {
        ProfileSummary summary = ProfileSummary.of(COLLAPSED);

        assertThat(summary.share(ProfileSummary.NATIVE)).isCloseTo(3 / 20.0, within(1e-9));
    }

    @Test
    void reportListsCategoriesFirstThenKernelEntriesCallingPackagesFramesAndThreads() {
        List<String> lines = ProfileSummary.of(COLLAPSED).lines(3);

        int blank = lines.indexOf("");
        assertThat(lines.subList(0, blank))
                .contains(
                        "    40.0%  kernel",
                        "    10.0%  GC threads", "    15.0%  other JVM/native", "     5.0%  JIT compiler threads");
        assertThat(lines)
                .contains(
                        "    25.0%  __libc_recv",
                        "    15.0%  __pwrite64",
                        "    35.0%  org.apache.kafka",
                        "    25.0%  tcp_recvmsg_[k]",
                        "    35.0%  Source: Kafka (1/2)#0");
    }

    @Test
    void everySampleCountsForTheRoleOfItsThreadInCpuSeconds() {
        ProfileSummary summary = ProfileSummary.of(List.of(
                "[Source Data Fetcher for Source: Kafka -> Sink: Writer (1/2)#0 tid=7];java/lang/Thread.run_[j] 40",
                "[kafka-consumer-2 tid=8];java/lang/Thread.run_[j] 10",
                "[Source: Kafka -> Classify -> Sink: Writer (2/2)#0 tid=9];java/lang/Thread.run_[j] 25",
                "[C1 CompilerThre tid=3];start_thread 7",
                "[G1 Conc#0 tid=4];start_thread 3",
                "[main tid=1];java/lang/Thread.run_[j] 5",
                "[kafka-producer-network-thread | producer-1 tid=10];java/lang/Thread.run_[j] 10"));

        assertThat(summary.cpu(ProfileSummary.ROLE_KAFKA_FETCH)).isEqualTo(Duration.ofMillis(500));
        assertThat(summary.cpu(ProfileSummary.ROLE_TASK)).isEqualTo(Duration.ofMillis(250));
        assertThat(summary.cpu(ProfileSummary.JIT)).isEqualTo(Duration.ofMillis(70));
        assertThat(summary.cpu(ProfileSummary.GC)).isEqualTo(Duration.ofMillis(30));
        assertThat(summary.cpu(ProfileSummary.ROLE_MAIN)).isEqualTo(Duration.ofMillis(50));
        assertThat(summary.cpu(ProfileSummary.ROLE_OTHER)).isEqualTo(Duration.ofMillis(100));
        assertThat(summary.lines(3)).contains("     0.5 s   50.0%  " + ProfileSummary.ROLE_KAFKA_FETCH);
    }

    @Test
    void aWallClockReportSaysTimeWhereACpuReportSaysCpu() {
        ProfileSummary summary = ProfileSummary.of(COLLAPSED);

        assertThat(summary.lines(3, true))
                .contains(
                        "where the wall-clock time went (GC and JIT threads whole; elsewhere by the frame on top):",
                        "wall-clock time by thread role (one sample = 10 ms):")
                .noneMatch(line -> line.contains("CPU"));
        assertThat(summary.lines(3)).contains("CPU by thread role (one sample = 10 ms):");
    }

    @Test
    void packageGroupsKeepThreePartsUnderOrgApacheAndLumpTheJdk() {
        assertThat(ProfileSummary.packageGroup("org/apache/kafka/common/record/DefaultRecord.readFrom"))
                .isEqualTo("org.apache.kafka");
        assertThat(ProfileSummary.packageGroup("io/blobingest/objectlayer/internal/RangeFetcher.fetch"))
                .isEqualTo("io.blobingest");
        assertThat(ProfileSummary.packageGroup("jdk/internal/misc/Unsafe.copyMemory0"))
                .isEqualTo(ProfileSummary.JDK);
        assertThat(ProfileSummary.packageGroup("Main.main")).isEqualTo("(default package)");
    }

    @Test
    void threadsNamedAfterALongOperatorChainKeepItsFirstAndLastOperator() {
        assertThat(ProfileSummary.shortThreadName("Source: Kafka -> Classify -> Raw Pack sink: Writer (1/2)#0"))
                .isEqualTo("Source: Kafka -> ... -> Raw Pack sink: Writer (1/2)#0");
        assertThat(ProfileSummary.shortThreadName("Source: Kafka -> Sink: Writer (1/2)#0"))
                .isEqualTo("Source: Kafka -> Sink: Writer (1/2)#0");
    }

    @Test
    void aLineWithoutACountIsRejectedWithItsNumber() {
        assertThatThrownBy(
                        () -> ProfileSummary.of(List.of("[main tid=1];Main.main_[j] 1", "[main tid=1];Main.main_[j]")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2");
    }
}
