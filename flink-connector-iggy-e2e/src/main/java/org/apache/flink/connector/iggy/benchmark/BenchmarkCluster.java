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
package org.apache.flink.connector.iggy.benchmark;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

import java.util.HashMap;
import java.util.Map;

/** The Flink cluster the benchmarks submit their jobs to. */
final class BenchmarkCluster {

    private static final String OPTION_PREFIX = "flink.";

    private BenchmarkCluster() {}

    /**
     * Starts one TaskManager with 2 slots, its REST endpoint on any free port (another benchmark on
     * a shared machine may hold the default 8081), with the Flink options given as system
     * properties {@code -Dflink.<key>=<value>}, e.g. {@code
     * -Dflink.source.reader.element.queue.capacity=8}.
     */
    static MiniCluster start() throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(OPTION_PREFIX)) {
                options.put(name.substring(OPTION_PREFIX.length()), System.getProperty(name));
            }
        }
        Configuration configuration = Configuration.fromMap(options);
        configuration.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(configuration)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(2)
                                .build());
        cluster.start();
        return cluster;
    }
}
