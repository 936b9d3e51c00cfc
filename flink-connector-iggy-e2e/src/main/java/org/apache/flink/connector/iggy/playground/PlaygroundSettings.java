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
package org.apache.flink.connector.iggy.playground;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the playground keeps its files, where its jars are and which ports it uses: from the system
 * properties {@code playground.sh} sets and the environment. Immutable.
 */
record PlaygroundSettings(
        Path home,
        Path iggyJar,
        Path sqlJar,
        String clusterClasspath,
        String clientClasspath,
        int iggyPort,
        int restPort) {

    static PlaygroundSettings from(Map<String, String> env) throws IOException {
        return new PlaygroundSettings(
                Path.of(property("playground.home")),
                Path.of(property("playground.iggy-jar")),
                Path.of(property("playground.sql-jar")),
                Files.readString(Path.of(property("playground.cluster-classpath"))).trim(),
                Files.readString(Path.of(property("playground.client-classpath"))).trim(),
                port(env, "IGGY_PORT", 8090),
                port(env, "FLINK_REST_PORT", 8081));
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(
                    "System property " + name + " is missing: run playground.sh");
        }
        return value;
    }

    private static int port(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a port number, got " + value);
        }
    }
}
