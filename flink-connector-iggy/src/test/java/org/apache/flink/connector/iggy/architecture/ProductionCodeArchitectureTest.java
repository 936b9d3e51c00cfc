/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.flink.connector.iggy.architecture;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering of the connector's production code: {@code table} builds on {@code source} and
 * {@code sink}, which build on {@code common}; {@code source} and {@code sink} know nothing of each
 * other. The rules name packages, not classes, so they hold for classes added or moved later.
 */
@AnalyzeClasses(
        packages = ProductionCodeArchitectureTest.CONNECTOR,
        importOptions = {
            ImportOption.DoNotIncludeTests.class,
            ProductionCodeArchitectureTest.DoNotIncludeTestUtils.class
        })
class ProductionCodeArchitectureTest {

    static final String CONNECTOR = "org.apache.flink.connector.iggy";
    private static final String COMMON = CONNECTOR + ".common..";
    private static final String SOURCE = CONNECTOR + ".source..";
    private static final String SINK = CONNECTOR + ".sink..";
    private static final String TABLE = CONNECTOR + ".table..";
    private static final String TEST_UTILS = CONNECTOR + ".testutils..";
    private static final String SDK_WORKAROUNDS = CONNECTOR + ".common.client..";
    private static final String SDK = "org.apache.iggy";

    @ArchTest
    static final ArchRule LAYERS =
            layeredArchitecture()
                    .consideringOnlyDependenciesInLayers()
                    .layer("table")
                    .definedBy(TABLE)
                    .layer("source")
                    .definedBy(SOURCE)
                    .layer("sink")
                    .definedBy(SINK)
                    .layer("common")
                    .definedBy(COMMON)
                    .whereLayer("table")
                    .mayNotBeAccessedByAnyLayer()
                    .whereLayer("source")
                    .mayOnlyBeAccessedByLayers("table")
                    .whereLayer("sink")
                    .mayOnlyBeAccessedByLayers("table")
                    .whereLayer("common")
                    .mayOnlyBeAccessedByLayers("source", "sink", "table")
                    .because("table builds on source and sink, which build on common");

    @ArchTest
    static final ArchRule SOURCE_AND_SINK_ARE_INDEPENDENT =
            noClasses()
                    .that()
                    .resideInAPackage(SOURCE)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(SINK)
                    .orShould()
                    .dependOnClassesThat()
                    .resideInAPackage(TABLE)
                    .because("the source is usable (and testable) without the sink and the table");

    @ArchTest
    static final ArchRule SINK_AND_SOURCE_ARE_INDEPENDENT =
            noClasses()
                    .that()
                    .resideInAPackage(SINK)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(SOURCE)
                    .orShould()
                    .dependOnClassesThat()
                    .resideInAPackage(TABLE)
                    .because("the sink is usable (and testable) without the source and the table");

    @ArchTest
    static final ArchRule EVERY_CLASS_IS_IN_A_LAYER =
            classes()
                    .should()
                    .resideInAnyPackage(COMMON, SOURCE, SINK, TABLE)
                    .because("a new package must take its place in the layering above");

    @ArchTest
    static final ArchRule NO_TEST_CODE_IN_MAIN =
            noClasses()
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            TEST_UTILS,
                            "org.junit..",
                            "org.assertj..",
                            "org.apache.flink.test..",
                            "org.apache.flink.connector.testframe..")
                    .because("the in-JVM server and test libraries are test-scoped");

    @ArchTest
    static final ArchRule PUBLIC_CLASSES_SAY_WHO_MAY_USE_THEM =
            classes()
                    .that()
                    .arePublic()
                    .and()
                    .areTopLevelClasses()
                    .should()
                    .beAnnotatedWith(PublicEvolving.class)
                    .orShould()
                    .beAnnotatedWith(Internal.class)
                    .because("users must see what is API (@PublicEvolving) and what is not");

    @ArchTest
    static final ArchRule INTERNAL_PACKAGES_HOLD_NO_PUBLIC_API =
            noClasses()
                    .that()
                    .resideInAPackage(CONNECTOR + "..internal..")
                    .should()
                    .beAnnotatedWith(PublicEvolving.class)
                    .because("an internal package is what users need not read");

    /**
     * The accessors that open package-private parts of the source's public types to its
     * subpackages: they must share the package of those types.
     */
    private static final String SOURCE_ACCESSORS =
            "org\\.apache\\.flink\\.connector\\.iggy\\.source\\.(IggyMessageAccess|OffsetSpecs)";

    @ArchTest
    static final ArchRule SOURCE_PACKAGE_SHOWS_THE_API =
            classes()
                    .that()
                    .resideInAPackage(CONNECTOR + ".source")
                    .and()
                    .areTopLevelClasses()
                    .and()
                    .areNotAnnotatedWith(PublicEvolving.class)
                    .should()
                    .haveNameMatching(SOURCE_ACCESSORS)
                    .because(
                            "the source package shows its public API; internals live in"
                                    + " source.internal, source.reader, source.enumerator and"
                                    + " source.split");

    /**
     * What besides the public API stays in {@code sink}: the exactly-once variants of the two
     * public sinks (a sealed class's subclasses share its package) and the accessor that opens the
     * keyed-map sink's package-private parts to the SQL sink.
     */
    private static final String SINK_RESIDENTS =
            "org\\.apache\\.flink\\.connector\\.iggy\\.sink\\."
                    + "(ExactlyOnceIggySink|ExactlyOnceKeyedMapSink|KeyedMapSinks)";

    @ArchTest
    static final ArchRule SINK_PACKAGE_SHOWS_THE_API =
            classes()
                    .that()
                    .resideInAPackage(CONNECTOR + ".sink")
                    .and()
                    .areTopLevelClasses()
                    .and()
                    .areNotAnnotatedWith(PublicEvolving.class)
                    .should()
                    .haveNameMatching(SINK_RESIDENTS)
                    .because(
                            "the sink package shows its public API; internals live in the"
                                    + " subpackages of sink.internal and in sink.reconcile");

    private static final String SINK_INTERNAL = CONNECTOR + ".sink.internal.";

    @ArchTest
    static final ArchRule SINK_PARTS_ARE_FREE_OF_CYCLES =
            slices().matching(SINK_INTERNAL + "(*)..")
                    .should()
                    .beFreeOfCycles()
                    .because("each part of the sink can be read without the ones above it");

    /**
     * The parts of the sink's internals, top to bottom: the committer and the two deliveries, then
     * the writer they build on, the write-ahead files, sending, and the configuration.
     */
    @ArchTest
    static final ArchRule SINK_PARTS_DEPEND_ONLY_DOWNWARDS =
            layeredArchitecture()
                    .consideringOnlyDependenciesInLayers()
                    .layer("committer")
                    .definedBy(SINK_INTERNAL + "committer..")
                    .layer("batching")
                    .definedBy(SINK_INTERNAL + "batching..")
                    .layer("exactlyonce")
                    .definedBy(SINK_INTERNAL + "exactlyonce..")
                    .layer("writer")
                    .definedBy(SINK_INTERNAL + "writer..")
                    .layer("writeahead")
                    .definedBy(SINK_INTERNAL + "writeahead..")
                    .layer("send")
                    .definedBy(SINK_INTERNAL + "send..")
                    .layer("config")
                    .definedBy(SINK_INTERNAL + "config..")
                    .whereLayer("committer")
                    .mayNotBeAccessedByAnyLayer()
                    .whereLayer("batching")
                    .mayNotBeAccessedByAnyLayer()
                    .whereLayer("exactlyonce")
                    .mayNotBeAccessedByAnyLayer()
                    .whereLayer("writer")
                    .mayOnlyBeAccessedByLayers("batching", "exactlyonce")
                    .whereLayer("writeahead")
                    .mayOnlyBeAccessedByLayers("committer", "batching", "exactlyonce", "writer")
                    .whereLayer("send")
                    .mayOnlyBeAccessedByLayers(
                            "committer", "batching", "exactlyonce", "writer", "writeahead")
                    .whereLayer("config")
                    .mayOnlyBeAccessedByLayers(
                            "committer", "batching", "exactlyonce", "writer", "writeahead", "send")
                    .because(
                            "the committer and the deliveries build on the writer, the writer on"
                                    + " the write-ahead files and sending, all of them on the"
                                    + " configuration; never the other way round");

    @ArchTest
    static final ArchRule PUBLIC_API_INHERITS_ONLY_PUBLIC_API =
            classes()
                    .that()
                    .areAnnotatedWith(PublicEvolving.class)
                    .should(inheritPublicMethodsOnlyFromPublicApi())
                    .because(
                            "a method users call on a public type must be visible to these checks"
                                    + " and to docs/api.md, not hidden in a package-private base");

    @ArchTest
    static final ArchRule PUBLIC_API_HAS_NO_INTERNAL_MEMBERS =
            classes()
                    .that()
                    .areAnnotatedWith(PublicEvolving.class)
                    .should(haveNoPublicInternalMembers())
                    .because(
                            "an @Internal method on a public type is still a method users call;"
                                    + " what the connector needs internally goes to a package-private"
                                    + " accessor or an @Internal helper class");

    private static ArchCondition<JavaClass> haveNoPublicInternalMembers() {
        return new ArchCondition<>("have no public @Internal members") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                for (JavaMember member : type.getMembers()) {
                    if (member.getModifiers().contains(JavaModifier.PUBLIC)
                            && member.isAnnotatedWith(Internal.class)) {
                        events.add(
                                SimpleConditionEvent.violated(
                                        type, member.getFullName() + " is public and @Internal"));
                    }
                }
            }
        };
    }

    @ArchTest
    static final ArchRule PUBLIC_API_USES_NO_TEST_HOOKS =
            classes()
                    .that()
                    .areAnnotatedWith(PublicEvolving.class)
                    .should(useNoTestHooksOfOtherTypes())
                    .because(
                            "test code injects its hooks into internal types; a public type that"
                                    + " reached one would carry test paths into users' jobs");

    /** Depends on no {@code @VisibleForTesting} type, and uses no such member of another type. */
    private static ArchCondition<JavaClass> useNoTestHooksOfOtherTypes() {
        return new ArchCondition<>("use no @VisibleForTesting type or member of another type") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                    if (dependency.getTargetClass().isAnnotatedWith(VisibleForTesting.class)) {
                        events.add(
                                SimpleConditionEvent.violated(type, dependency.getDescription()));
                    }
                }
                for (JavaAccess<?> access : type.getAccessesFromSelf()) {
                    if (!access.getTargetOwner().equals(type)
                            && access.getTarget()
                                    .resolveMember()
                                    .map(m -> m.isAnnotatedWith(VisibleForTesting.class))
                                    .orElse(false)) {
                        events.add(SimpleConditionEvent.violated(type, access.getDescription()));
                    }
                }
            }
        };
    }

    @ArchTest
    static final ArchRule PUBLIC_API_SHOWS_NO_SDK_TYPES =
            classes()
                    .that()
                    .areAnnotatedWith(PublicEvolving.class)
                    .should(showNoSdkTypesInPublicSignatures())
                    .because(
                            "the Iggy SDK is pre-1.0: its types change under users, so public"
                                    + " signatures show the connector's own types and convert"
                                    + " internally");

    /** No public method or constructor of the type takes, returns or throws an SDK type. */
    private static ArchCondition<JavaClass> showNoSdkTypesInPublicSignatures() {
        return new ArchCondition<>("show no Iggy SDK types in public signatures") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                for (JavaCodeUnit member : type.getCodeUnits()) {
                    if (!member.getModifiers().contains(JavaModifier.PUBLIC)) {
                        continue;
                    }
                    for (JavaClass involved : member.getAllInvolvedRawTypes()) {
                        if (involved.getPackageName().startsWith(SDK)) {
                            events.add(
                                    SimpleConditionEvent.violated(
                                            type,
                                            member.getFullName()
                                                    + " shows the SDK type "
                                                    + involved.getName()));
                        }
                    }
                }
            }
        };
    }

    /**
     * Every public method a {@code @PublicEvolving} type has, declared or inherited, is declared by
     * a {@code @PublicEvolving} type or outside the connector (Flink's, the JDK's). The shims of
     * {@code common.shim} count as Flink's: they only restate, per Flink line, a Flink interface.
     */
    private static ArchCondition<JavaClass> inheritPublicMethodsOnlyFromPublicApi() {
        return new ArchCondition<>("inherit public methods only from @PublicEvolving types") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                for (JavaMethod method : type.getAllMethods()) {
                    JavaClass owner = method.getOwner();
                    if (method.getModifiers().contains(JavaModifier.PUBLIC)
                            && owner.getPackageName().startsWith(CONNECTOR)
                            && !owner.getPackageName().equals(CONNECTOR + ".common.shim")
                            && !owner.isAnnotatedWith(PublicEvolving.class)) {
                        events.add(
                                SimpleConditionEvent.violated(
                                        type,
                                        type.getName()
                                                + " exposes "
                                                + method.getFullName()
                                                + " of a type that is not @PublicEvolving"));
                    }
                }
            }
        };
    }

    /** The gateway: the one package meant to use the SDK's client and message types. */
    private static final String GATEWAY = CONNECTOR + ".common.client..";

    @ArchTest
    static final ArchRule ONLY_THE_GATEWAY_USES_THE_SDK =
            noClasses()
                    .that()
                    .resideOutsideOfPackage(GATEWAY)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(SDK + "..")
                    .because(
                            "an SDK upgrade should touch one package: the source, the sink and"
                                    + " the catalog talk to Iggy through common.client, in the"
                                    + " connector's own types");

    @ArchTest
    static final ArchRule PRIVATE_REFLECTION_ONLY_IN_THE_SDK_WORKAROUNDS =
            noClasses()
                    .that()
                    .resideOutsideOfPackage(SDK_WORKAROUNDS)
                    .should()
                    .dependOnClassesThat()
                    .belongToAnyOf(
                            Field.class, Method.class, Constructor.class, AccessibleObject.class)
                    .orShould()
                    .callMethod(Class.class, "getDeclaredField", String.class)
                    .orShould()
                    .callMethod(Class.class, "getDeclaredFields")
                    .orShould()
                    .callMethod(Class.class, "getDeclaredMethod", String.class, Class[].class)
                    .orShould()
                    .callMethod(Class.class, "getDeclaredMethods")
                    .orShould()
                    .callMethod(
                            MethodHandles.class,
                            "privateLookupIn",
                            Class.class,
                            MethodHandles.Lookup.class)
                    .because(
                            "reflection on the Iggy SDK's internals lives in one place (IggySdk),"
                                    + " with a fallback and a test that pins the members");

    @ArchTest
    static final ArchRule SDK_INTERNALS_ONLY_IN_THE_SDK_WORKAROUNDS =
            noClasses()
                    .that()
                    .resideOutsideOfPackage(SDK_WORKAROUNDS)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("io.netty..")
                    .orShould()
                    .dependOnClassesThat()
                    .haveNameMatching(
                            "org\\.apache\\.iggy\\.client\\.async\\.tcp\\.AsyncTcpConnection(\\$.*)?")
                    .because(
                            "the SDK's Netty connections are its internals: only IggySdk reaches"
                                    + " them");

    /** Leaves out the in-JVM server, which is on the class path but not part of this module. */
    static final class DoNotIncludeTestUtils implements ImportOption {
        @Override
        public boolean includes(com.tngtech.archunit.core.importer.Location location) {
            return !location.contains("/org/apache/flink/connector/iggy/testutils/");
        }
    }
}
