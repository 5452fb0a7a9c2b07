package io.blobingest.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The house's layout, checked: each module has its own package root, modules depend only downward,
 * and a module's {@code internal} packages are its own. This module depends on every other one, so
 * their main classes are all on its class path.
 */
class ArchitectureTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar")) // a module's test-jar
                .importPackages("io.blobingest");
    }

    @Test
    void noJavaPackageIsInTwoModules() throws IOException {
        Map<String, Set<String>> modulesByPackage = new TreeMap<>();
        try (Stream<Path> modules = Files.list(REPOSITORY)) {
            for (Path module : modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml")))
                    .toList()) {
                for (String tree : List.of("src/main/java", "src/test/java")) {
                    Path root = module.resolve(tree);
                    if (!Files.isDirectory(root)) {
                        continue;
                    }
                    try (Stream<Path> files = Files.walk(root)) {
                        files.filter(f -> f.toString().endsWith(".java"))
                                .map(f -> root.relativize(f.getParent())
                                        .toString()
                                        .replace('/', '.'))
                                .forEach(pkg -> modulesByPackage
                                        .computeIfAbsent(pkg, p -> new TreeSet<>())
                                        .add(module.getFileName().toString()));
                    } catch (UncheckedIOException e) {
                        throw e.getCause();
                    }
                }
            }
        }
        assertThat(modulesByPackage).as("Java packages by module").isNotEmpty();
        assertThat(modulesByPackage)
                .as("packages found in more than one module (main or test sources)")
                .allSatisfy((pkg, modules) -> assertThat(modules).as(pkg).hasSize(1));
    }

    @Test
    void modulesDependOnlyOnTheLayersBelowThem() {
        layeredArchitecture()
                .consideringOnlyDependenciesInAnyPackage("io.blobingest..")
                .layer("objectlayer")
                .definedBy("io.blobingest.objectlayer..")
                .layer("placement")
                .definedBy("io.blobingest.placement..")
                .layer("storage")
                .definedBy("io.blobingest.storage..")
                .layer("sink")
                .definedBy("io.blobingest.sink..")
                .layer("lance")
                .definedBy("io.blobingest.lance..")
                .layer("kafka")
                .definedBy("io.blobingest.kafka..")
                .layer("job")
                .definedBy("io.blobingest.job..")
                .layer("cli")
                .definedBy("io.blobingest.cli..")
                .layer("bench")
                .definedBy("io.blobingest.bench..")
                .layer("broker")
                .definedBy("io.blobingest.broker..")
                .layer("testkit")
                .definedBy("io.blobingest.testkit..")
                .whereLayer("broker")
                .mayOnlyBeAccessedByLayers("testkit", "cli", "bench")
                .whereLayer("testkit")
                .mayOnlyBeAccessedByLayers("bench")
                .whereLayer("bench")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("cli")
                .mayOnlyBeAccessedByLayers("bench")
                .whereLayer("job")
                .mayOnlyBeAccessedByLayers("cli", "bench")
                .whereLayer("kafka")
                .mayOnlyBeAccessedByLayers("job", "cli", "bench")
                .whereLayer("lance")
                .mayOnlyBeAccessedByLayers("job", "cli", "bench")
                .whereLayer("sink")
                .mayOnlyBeAccessedByLayers("lance", "kafka", "job", "cli", "bench")
                .whereLayer("storage")
                .mayOnlyBeAccessedByLayers("sink", "lance", "kafka", "job", "cli", "bench")
                .whereLayer("placement")
                .mayOnlyBeAccessedByLayers("storage", "sink", "lance", "kafka", "job", "cli", "bench")
                .check(classes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"objectlayer", "placement", "storage", "sink", "lance", "kafka", "job", "cli"})
    void aModulesInternalPackagesAreUsedOnlyInsideIt(String root) {
        // The JMH benchmarks measure internals on purpose; nothing else may reach them.
        noClasses()
                .that()
                .resideOutsideOfPackages("io.blobingest." + root + "..", "io.blobingest.bench.jmh..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.blobingest." + root + "..internal..")
                .allowEmptyShould(true)
                .check(classes);
    }

    /**
     * The Flink modules mark their API as Flink does: {@code @PublicEvolving} for what users build
     * on, {@code @Internal} for the rest. The object layer and the placement policy are plain Java
     * libraries, and the command line and benchmarks are applications, so they carry no marks.
     */
    @ParameterizedTest
    @ValueSource(strings = {"storage", "sink", "lance", "kafka", "job"})
    void everyPublicTypeOfAFlinkModuleIsMarkedPublicEvolvingOrInternal(String root) {
        classes()
                .that()
                .resideInAPackage("io.blobingest." + root + "..")
                .and()
                .arePublic()
                .and()
                .areTopLevelClasses()
                .should()
                .beAnnotatedWith(PublicEvolving.class)
                .orShould()
                .beAnnotatedWith(Internal.class)
                .check(classes);
        classes()
                .that()
                .resideInAPackage("io.blobingest." + root + "..internal..")
                .and()
                .arePublic()
                .and()
                .areTopLevelClasses()
                .should()
                .beAnnotatedWith(Internal.class)
                .check(classes);
    }

    @Test
    void theObjectLayerKnowsNeitherFlinkNorKafka() {
        noClasses()
                .that()
                .resideInAPackage("io.blobingest.objectlayer..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.flink..", "org.apache.kafka..")
                .check(classes);
    }
}
