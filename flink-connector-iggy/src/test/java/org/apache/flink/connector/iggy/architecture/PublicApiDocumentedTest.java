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
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API is exactly what docs/api.md lists: a {@code @PublicEvolving} type nobody can find
 * in the docs, or a documented type that is not public API, fails here. The API is the connector's
 * and that of its test utilities (module test-utils, on this module's test class path), whose other
 * public types must say they are {@code @Internal}.
 */
class PublicApiDocumentedTest {

    /** A table row whose first cell is one back-quoted simple type name: "| `IggySource` | ...". */
    private static final Pattern TYPE_ROW = Pattern.compile("^\\| `([A-Z][A-Za-z0-9]*)` \\|");

    private static final String TEST_UTILS =
            ProductionCodeArchitectureTest.CONNECTOR + ".testutils";

    /** The production classes of the connector and of test-utils; no test classes. */
    private static final JavaClasses PRODUCTION_CODE =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages(ProductionCodeArchitectureTest.CONNECTOR);

    @Test
    void everyPublicEvolvingTypeIsListedInTheApiPageAndNothingElse() throws IOException {
        Set<String> documented = documentedTypes();
        Set<String> publicEvolving = publicEvolvingTypes();
        assertThat(publicEvolving)
                .as("the test utilities' API is imported too")
                .contains(IggyServerExtension.class.getSimpleName());
        assertThat(publicEvolving)
                .as(
                        "@PublicEvolving types missing from docs/api.md: document them or make them @Internal")
                .isSubsetOf(documented);
        assertThat(documented)
                .as("types docs/api.md lists that are not @PublicEvolving: drop them from the page")
                .isSubsetOf(publicEvolving);
    }

    /** The connector's own classes are checked by {@code ProductionCodeArchitectureTest}. */
    @Test
    void everyPublicTypeOfTheTestUtilitiesSaysWhoMayUseIt() {
        Set<String> unmarked = new TreeSet<>();
        for (JavaClass type : PRODUCTION_CODE) {
            if (isTestUtils(type)
                    && type.isTopLevelClass()
                    && type.getModifiers().contains(JavaModifier.PUBLIC)
                    && !type.isAnnotatedWith(PublicEvolving.class)
                    && !type.isAnnotatedWith(Internal.class)) {
                unmarked.add(type.getName());
            }
        }
        assertThat(unmarked)
                .as(
                        "public test-utils types without @PublicEvolving (list them in docs/api.md)"
                                + " or @Internal")
                .isEmpty();
    }

    private static boolean isTestUtils(JavaClass type) {
        return type.getPackageName().equals(TEST_UTILS)
                || type.getPackageName().startsWith(TEST_UTILS + ".");
    }

    private static Set<String> publicEvolvingTypes() {
        Set<String> names = new TreeSet<>();
        for (JavaClass type : PRODUCTION_CODE) {
            if (type.isTopLevelClass() && type.isAnnotatedWith(PublicEvolving.class)) {
                names.add(type.getSimpleName());
            }
        }
        return names;
    }

    private static Set<String> documentedTypes() throws IOException {
        Path moduleDir = Paths.get(System.getProperty("basedir", "."));
        Set<String> names = new TreeSet<>();
        for (String line :
                Files.readAllLines(
                        moduleDir.resolve("../docs/api.md").normalize(), StandardCharsets.UTF_8)) {
            Matcher row = TYPE_ROW.matcher(line);
            if (row.find()) {
                names.add(row.group(1));
            }
        }
        return names;
    }
}
