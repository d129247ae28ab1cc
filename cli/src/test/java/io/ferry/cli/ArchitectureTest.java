package io.ferry.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The module graph and the package rules, checked on the built classes of every module the
 * {@code ferry} jar holds (this module sees them all). Dependencies point one way: the command line
 * on top, then the perf harness, the health check and the peer bridges, then the deployable bridge
 * (runtime), then the workflows, the engine (adapter-core), the service API and profiling.
 */
@AnalyzeClasses(packages = "io.ferry", importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureTest.NoTestJars.class})
class ArchitectureTest {

    /** Other modules' test support (their test-jars) is not part of the product. */
    static final class NoTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.matches(java.util.regex.Pattern.compile(".*-tests\\.jar.*"));
        }
    }

    private static final String PROFILING = "io.ferry.profiling..";
    private static final String API = "io.ferry.api..";
    private static final String CORE = "io.ferry.core..";
    private static final String WORKFLOWS = "io.ferry.workflow..";

    /** No package imports another that imports it back, directly or around a circle, in any module. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.ferry.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule modulesDependOneWay = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("profiling").definedBy(PROFILING)
            .layer("api").definedBy(API)
            .layer("core").definedBy(CORE)
            .layer("workflows").definedBy(WORKFLOWS)
            .layer("providers").definedBy("io.ferry.provider..")
            .layer("broker").definedBy("io.ferry.broker..")
            .layer("loadgen").definedBy("io.ferry.loadgen..")
            .layer("process").definedBy("io.ferry.process..")
            .layer("report").definedBy("io.ferry.report..")
            .layer("runtime").definedBy("io.ferry.runtime..")
            .layer("perf").definedBy("io.ferry.perf..")
            .layer("health").definedBy("io.ferry.health..")
            .layer("peers").definedBy("io.ferry.peers..")
            .layer("cli").definedBy("io.ferry.cli..")
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("perf").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("health").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("peers").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("report").mayOnlyBeAccessedByLayers("perf", "health", "cli")
            .whereLayer("runtime").mayOnlyBeAccessedByLayers("perf", "health", "cli")
            .whereLayer("workflows").mayOnlyBeAccessedByLayers("runtime", "perf", "health", "cli")
            .whereLayer("providers").mayNotBeAccessedByAnyLayer()
            .whereLayer("core").mayOnlyBeAccessedByLayers("providers", "workflows", "loadgen", "runtime", "perf", "health", "peers", "cli")
            .whereLayer("api").mayOnlyBeAccessedByLayers("core", "providers", "workflows", "loadgen", "runtime", "perf", "health", "cli")
            .whereLayer("profiling").mayOnlyBeAccessedByLayers("core", "providers", "workflows", "runtime", "perf", "health", "cli")
            .whereLayer("loadgen").mayOnlyBeAccessedByLayers("perf", "cli")
            .whereLayer("broker").mayOnlyBeAccessedByLayers("perf", "cli")
            .whereLayer("process").mayOnlyBeAccessedByLayers("runtime", "perf", "peers", "cli");

    /** The libraries a bridge is built from know no Spring: the application wires them. */
    @ArchTest
    static final ArchRule coreModulesImportNoSpring = noClasses().that().resideInAnyPackage(PROFILING, API, CORE, WORKFLOWS)
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..");

    /** The engine speaks jakarta.jms only: every vendor's client is behind a provider (io.ferry.provider). */
    @ArchTest
    static final ArchRule engineKnowsNoVendor = noClasses().that().resideInAnyPackage(API, CORE, WORKFLOWS, "io.ferry.runtime..",
                    "io.ferry.loadgen..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.activemq..", "org.apache.qpid..", "com.rabbitmq..", "com.ibm..");

    /** Profiling times any method: it knows nothing of messaging. */
    @ArchTest
    static final ArchRule profilingImportsNoJms = noClasses().that().resideInAPackage(PROFILING)
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.jms..", "javax.jms..", "org.apache.activemq..", "io.ferry..")
            .andShould().dependOnClassesThat().resideOutsideOfPackages("java..", "javax.annotation..", "org.aspectj..", "org.perf4j..",
                    "org.HdrHistogram..", "tools.jackson..", "org.slf4j..", PROFILING);

    /** Someone writing a service depends on the API alone: no broker client, no framework, nothing of Ferry's engine. */
    @ArchTest
    static final ArchRule apiHoldsNoBrokerClient = noClasses().that().resideInAPackage(API)
            .should().dependOnClassesThat().resideOutsideOfPackages("java..", API);
}
