package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.ExactSharing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.CompositeType;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.ListTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The types of every stream the job builds are declared, never left to Flink's generic fallback:
 * a {@link GenericTypeInfo} is serialized by Kryo, which cannot rebuild the immutable lists of
 * attributes, and is slow. Chaining hides it (chained operators hand objects over without
 * serializing), so the graph is checked rather than a run.
 */
class IngestJobTypesTest {

    @TempDir
    Path base;

    @ParameterizedTest
    @EnumSource(ExactSharing.class)
    void noStreamOfTheJobFallsBackToKryo(ExactSharing sharing) {
        StreamExecutionEnvironment env = GraphOnlyJob.build(base, sharing);

        Set<Transformation<?>> transformations = transformations(env);
        List<String> generic = new ArrayList<>();
        for (Transformation<?> transformation : transformations) {
            collectGeneric(transformation.getName(), transformation.getOutputType(), generic);
        }
        assertThat(transformations).as("the job's transformations").hasSizeGreaterThan(5);
        assertThat(generic).as("streams with a type Kryo would serialize").isEmpty();
    }

    /**
     * Blobs and descriptor rows travel with the types {@link BlobTypes} declares, field by field,
     * and a blob's payload written once ({@code PlacedBlobSerializer}), wherever the stream is built.
     * Flink 2.2 extracts a descriptor row as the same POJO type, but a blob as a plain POJO that
     * writes its bytes twice, and an older Flink would have made their list fields generic.
     */
    @ParameterizedTest
    @EnumSource(ExactSharing.class)
    void everyStreamOfBlobsOrDescriptorRowsHasItsDeclaredType(ExactSharing sharing) {
        StreamExecutionEnvironment env = GraphOnlyJob.build(base, sharing);

        Map<Class<?>, TypeInformation<?>> declared =
                Map.of(DescriptorRow.class, BlobTypes.DESCRIPTOR_ROW, PlacedBlob.class, BlobTypes.PLACED_BLOB);
        List<String> streams = new ArrayList<>();
        List<String> undeclared = new ArrayList<>();
        for (Transformation<?> transformation : transformations(env)) {
            TypeInformation<?> type = transformation.getOutputType();
            TypeInformation<?> expected = declared.get(type.getTypeClass());
            if (expected != null) {
                streams.add(transformation.getName());
                if (!expected.equals(type)) {
                    undeclared.add(transformation.getName() + ": " + type);
                }
            }
        }
        assertThat(streams).as("streams of blobs or descriptor rows").isNotEmpty();
        assertThat(undeclared)
                .as("streams of blobs or descriptor rows of another type")
                .isEmpty();
    }

    private static Set<Transformation<?>> transformations(StreamExecutionEnvironment env) {
        Set<Transformation<?>> transformations = new LinkedHashSet<>();
        for (Transformation<?> sink : env.getTransformations()) {
            transformations.addAll(sink.getTransitivePredecessors());
        }
        return transformations;
    }

    private static void collectGeneric(String path, TypeInformation<?> type, List<String> generic) {
        if (type instanceof GenericTypeInfo<?>) {
            generic.add(path + ": " + type);
        } else if (type instanceof CompositeType<?> composite) {
            for (int i = 0; i < composite.getArity(); i++) {
                collectGeneric(path + "." + composite.getFieldNames()[i], composite.getTypeAt(i), generic);
            }
        } else if (type instanceof ListTypeInfo<?> list) {
            collectGeneric(path + "[]", list.getElementTypeInfo(), generic);
        } else if (type instanceof EitherTypeInfo<?, ?> either) {
            collectGeneric(path + ".left", either.getLeftType(), generic);
            collectGeneric(path + ".right", either.getRightType(), generic);
        }
    }
}
