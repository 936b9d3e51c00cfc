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
package org.apache.flink.connector.iggy.sql;

import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.Factory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the built SQL jar (run by failsafe after the shade step): nothing but Flink's packages,
 * relocated packages and {@code META-INF} inside; every reference the connector makes into a
 * relocated package resolves inside the jar; the factory service file lists both connectors and the
 * catalog.
 */
class SqlJarPackagingIT {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final String FACTORY_SERVICE =
            "META-INF/services/org.apache.flink.table.factories.Factory";

    /** Packages that must never appear unrelocated in a class reference. */
    private static final List<String> RELOCATED_PACKAGES =
            List.of(
                    "org/apache/iggy/",
                    "io/netty/",
                    "tools/jackson/",
                    "com/fasterxml/jackson/",
                    "reactor/",
                    "org/reactivestreams/",
                    "org/apache/hc/",
                    "org/apache/commons/lang3/",
                    "org/apache/commons/codec/");

    /** Data files that libraries load by a fixed path, which relocation does not rewrite. */
    private static final Set<String> UNRELOCATED_RESOURCES =
            Set.of("iggy-version.properties", "org/publicsuffix/list/effective_tld_names.dat");

    private static final Pattern VERSIONED = Pattern.compile("META-INF/versions/\\d+/(.+)");

    private static File jar;
    private static String shadedPath;
    private static Map<String, byte[]> classes;

    @BeforeAll
    static void readJar() throws IOException {
        jar = new File(System.getProperty("sqlJar"));
        assertThat(jar).as("the shaded SQL jar").isFile();
        shadedPath = System.getProperty("shadedPrefix").replace('.', '/') + "/";
        classes = new TreeMap<>();
        try (JarFile file = new JarFile(jar)) {
            for (JarEntry entry : file.stream().collect(Collectors.toList())) {
                if (entry.getName().endsWith(".class")) {
                    try (InputStream in = file.getInputStream(entry)) {
                        classes.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
    }

    @Test
    void containsOnlyFlinkRelocatedAndMetaInfEntries() throws IOException {
        List<String> stray = new ArrayList<>();
        try (JarFile file = new JarFile(jar)) {
            for (JarEntry entry : file.stream().collect(Collectors.toList())) {
                String name = entry.getName();
                if (entry.isDirectory() || UNRELOCATED_RESOURCES.contains(name)) {
                    continue;
                }
                Matcher versioned = VERSIONED.matcher(name);
                String path = versioned.matches() ? versioned.group(1) : name;
                boolean allowed =
                        path.startsWith("org/apache/flink/")
                                || (path.startsWith("META-INF/") && !path.endsWith(".class"));
                if (!allowed) {
                    stray.add(name);
                }
            }
        }
        assertThat(stray).as("entries outside org/apache/flink/** and META-INF/**").isEmpty();
        assertThat(classes.keySet())
                .as("the connector, the Iggy SDK and Netty are inside")
                .contains(
                        "org/apache/flink/connector/iggy/common/client/IggyServerClient.class",
                        shadedPath + "org/apache/iggy/client/async/tcp/AsyncIggyTcpClient.class",
                        shadedPath + "io/netty/channel/Channel.class",
                        shadedPath + "tools/jackson/databind/ObjectMapper.class");
        assertThat(classes.keySet())
                .as("slf4j is provided by Flink and must not be bundled")
                .noneMatch(name -> name.contains("org/slf4j/"));
        assertThat(classes.keySet())
                .as("BLAKE2b is the connector's own; BouncyCastle must not be bundled")
                .noneMatch(name -> name.contains("org/bouncycastle/"));
    }

    @Test
    void carriesTheApacheLicenseAndANoticeNamingEveryBundledGroupId() throws IOException {
        String license = entryText("META-INF/LICENSE");
        String notice = entryText("META-INF/NOTICE");
        assertThat(license).contains("Apache License", "Version 2.0, January 2004");

        String pom = Files.readString(Path.of(System.getProperty("modulePom")));
        Matcher include = Pattern.compile("<include>([^:<]+):([^<]+)</include>").matcher(pom);
        Set<String> bundledGroups = new TreeSet<>();
        while (include.find()) {
            bundledGroups.add(include.group(1));
        }
        assertThat(bundledGroups).as("the shade plugin's artifactSet").contains("io.netty");
        for (String group : bundledGroups) {
            assertThat(notice)
                    .as("NOTICE names the bundled groupId " + group)
                    .contains(group + ":");
        }
    }

    /** The version names the Flink line; the NOTICE, the versions this jar bundles. */
    @Test
    void itsNameAndNoticeNameTheVersionsOfThisBuild() throws IOException {
        String version = System.getProperty("connectorVersion");
        String flink = System.getProperty("flinkVersion");
        String line = flink.substring(0, flink.indexOf('.', flink.indexOf('.') + 1));
        assertThat(version).contains("-" + line + "-");
        assertThat(jar.getName()).isEqualTo("flink-sql-connector-iggy-" + version + ".jar");
        assertThat(entryText("META-INF/NOTICE"))
                .contains("- org.apache.flink:flink-connector-iggy:" + version + "\n")
                .contains("- org.apache.flink:flink-connector-base:" + flink + "\n")
                .doesNotContain("${");
    }

    @Test
    void everyNonApacheLicenseTheNoticeNamesIsInside() throws IOException {
        String notice = entryText("META-INF/NOTICE");
        Set<String> named = new TreeSet<>();
        Matcher file = Pattern.compile("\\((LICENSE\\.[A-Za-z_]+)\\)").matcher(notice);
        while (file.find()) {
            named.add("META-INF/licenses/" + file.group(1));
        }
        Set<String> inside;
        try (JarFile file2 = new JarFile(jar)) {
            inside =
                    file2.stream()
                            .map(JarEntry::getName)
                            .filter(name -> name.startsWith("META-INF/licenses/LICENSE"))
                            .collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(named).isNotEmpty();
        assertThat(inside).isEqualTo(named);
    }

    private static String entryText(String name) throws IOException {
        try (JarFile file = new JarFile(jar)) {
            JarEntry entry = file.getJarEntry(name);
            assertThat(entry).as(name + " in the SQL jar").isNotNull();
            try (InputStream in = file.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void everyClassReferenceIsRelocated() {
        Map<String, Set<String>> unrelocated = new TreeMap<>();
        classes.forEach(
                (name, bytes) -> {
                    for (String ref : referencedClasses(bytes)) {
                        if (RELOCATED_PACKAGES.stream().anyMatch(ref::startsWith)) {
                            unrelocated.computeIfAbsent(name, k -> new TreeSet<>()).add(ref);
                        }
                    }
                });
        assertThat(unrelocated).as("classes referring to unrelocated dependencies").isEmpty();
    }

    /**
     * commons-codec is minimized, so check that nothing the connector (or commons-codec itself)
     * needs was cut away.
     */
    @Test
    void everyRelocatedClassTheConnectorNeedsIsInside() {
        Set<String> present = new HashSet<>();
        for (String name : classes.keySet()) {
            Matcher versioned = VERSIONED.matcher(name);
            String path = versioned.matches() ? versioned.group(1) : name;
            present.add(path.substring(0, path.length() - ".class".length()));
        }
        List<String> minimized = List.of(shadedPath + "org/apache/commons/codec/");
        Map<String, Set<String>> missing = new TreeMap<>();
        classes.forEach(
                (name, bytes) -> {
                    boolean connector =
                            name.startsWith("org/apache/flink/connector/iggy/")
                                    && !name.startsWith(shadedPath);
                    boolean minimizedLibrary = minimized.stream().anyMatch(name::startsWith);
                    if (!connector && !minimizedLibrary) {
                        return;
                    }
                    for (String ref : referencedClasses(bytes)) {
                        boolean mustBeInside =
                                connector
                                        ? ref.startsWith(shadedPath)
                                        : minimized.stream().anyMatch(ref::startsWith);
                        if (mustBeInside && !present.contains(ref)) {
                            missing.computeIfAbsent(name, k -> new TreeSet<>()).add(ref);
                        }
                    }
                });
        assertThat(missing).as("references to relocated classes missing from the jar").isEmpty();
    }

    @Test
    void registersBothTableFactories() throws Exception {
        String services;
        try (JarFile file = new JarFile(jar)) {
            JarEntry entry = file.getJarEntry(FACTORY_SERVICE);
            assertThat(entry).as(FACTORY_SERVICE).isNotNull();
            try (InputStream in = file.getInputStream(entry)) {
                services = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        Set<String> listed =
                Arrays.stream(services.split("\n"))
                        .map(String::trim)
                        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                        .collect(Collectors.toSet());
        assertThat(listed).hasSize(3);

        // Load them from the jar itself, as the SQL client does from lib/: Flink's own classes come
        // from the test class path, everything of the connector from the jar.
        Set<String> identifiers = new HashSet<>();
        Set<String> catalogs = new HashSet<>();
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {jar.toURI().toURL()}, getClass().getClassLoader())) {
            for (Factory factory : ServiceLoader.load(Factory.class, loader)) {
                if (listed.contains(factory.getClass().getName())) {
                    assertThat(factory.getClass().getClassLoader()).isSameAs(loader);
                    (factory instanceof CatalogFactory ? catalogs : identifiers)
                            .add(factory.factoryIdentifier());
                    assertThat(factory.requiredOptions()).isNotNull();
                    assertThat(factory.optionalOptions()).isNotEmpty();
                }
            }
        }
        assertThat(identifiers).containsExactlyInAnyOrder("iggy", "upsert-iggy");
        assertThat(catalogs).containsExactly("iggy");
    }

    /**
     * The relocated SDK and Netty work: the connector's own client code, loaded from the jar, logs
     * in to the Iggy server and reads a topic's details.
     */
    @Test
    void relocatedClientTalksToIggy() throws Exception {
        String stream = IGGY.uniqueName("sqljar");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 3);
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {jar.toURI().toURL()}, getClass().getClassLoader())) {
            String common = "org.apache.flink.connector.iggy.common.";
            Class<?> configClass = loader.loadClass(common + "IggyConnectionConfig");
            Object builder = configClass.getMethod("builder").invoke(null);
            Class<?> builderClass = builder.getClass();
            builderClass.getMethod("setAddress", String.class).invoke(builder, IGGY.address());
            builderClass
                    .getMethod("setCredentials", String.class, String.class)
                    .invoke(builder, IGGY.username(), IGGY.password());
            Object config = builderClass.getMethod("build").invoke(builder);

            Class<?> serverClass = loader.loadClass(common + "client.IggyServerClient");
            Object server =
                    serverClass
                            .getMethod("connect", configClass, Counter.class)
                            .invoke(null, config, new SimpleCounter());
            try {
                assertThat(serverClass.getDeclaredField("client").getType().getName())
                        .startsWith(shadedPrefix());
                Class<?> idClass = loader.loadClass(common + "IggyId");
                Object details =
                        serverClass
                                .getMethod("describe", idClass, idClass)
                                .invoke(
                                        server,
                                        idClass.getMethod("of", String.class).invoke(null, stream),
                                        idClass.getMethod("of", String.class).invoke(null, "t"));
                Object partitions = details.getClass().getMethod("partitionsCount").invoke(details);
                assertThat(((Number) partitions).longValue()).isEqualTo(3);
            } finally {
                ((AutoCloseable) server).close();
            }
        } finally {
            IGGY.deleteStream(stream);
        }
    }

    private static String shadedPrefix() {
        return System.getProperty("shadedPrefix") + ".";
    }

    /** The class names a class file's constant pool refers to (internal form, arrays unwrapped). */
    private static Set<String> referencedClasses(byte[] classFile) {
        Set<String> refs = new HashSet<>();
        try (DataInputStream in =
                new DataInputStream(new java.io.ByteArrayInputStream(classFile))) {
            in.readInt(); // magic
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> classIndexes = new ArrayList<>();
            List<Integer> descriptorIndexes = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1: // Utf8
                        utf8[i] = in.readUTF();
                        break;
                    case 7: // Class
                        classIndexes.add(in.readUnsignedShort());
                        break;
                    case 16: // MethodType
                        descriptorIndexes.add(in.readUnsignedShort());
                        break;
                    case 8: // String
                    case 19: // Module
                    case 20: // Package
                        in.readUnsignedShort();
                        break;
                    case 15: // MethodHandle
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                        break;
                    case 12: // NameAndType: the descriptor names classes too
                        in.readUnsignedShort();
                        descriptorIndexes.add(in.readUnsignedShort());
                        break;
                    case 3: // Integer
                    case 4: // Float
                    case 9: // Fieldref
                    case 10: // Methodref
                    case 11: // InterfaceMethodref
                    case 17: // Dynamic
                    case 18: // InvokeDynamic
                        in.readInt();
                        break;
                    case 5: // Long
                    case 6: // Double
                        in.readLong();
                        i++;
                        break;
                    default:
                        throw new IllegalStateException("Unknown constant pool tag " + tag);
                }
            }
            for (int index : classIndexes) {
                String name = utf8[index];
                int start = name.lastIndexOf('[') + 1;
                if (start > 0 && name.charAt(start) == 'L') {
                    name = name.substring(start + 1, name.length() - 1);
                } else if (start > 0) {
                    continue; // array of primitives
                }
                refs.add(name);
            }
            Pattern inDescriptor = Pattern.compile("L([^;<>]+)[;<]");
            for (int index : descriptorIndexes) {
                Matcher m = inDescriptor.matcher(utf8[index]);
                while (m.find()) {
                    refs.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return refs;
    }
}
