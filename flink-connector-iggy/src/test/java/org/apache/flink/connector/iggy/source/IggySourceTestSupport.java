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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Small helpers shared by the source's and the table source's tests. */
public final class IggySourceTestSupport {

    private IggySourceTestSupport() {}

    /** What a deserializer's {@code open} gets outside a job: no metrics, this class loader. */
    public static IggyRecordDeserializationSchema.Context deserializerContext(Counter skipped) {
        return new IggyRecordDeserializationSchema.Context() {
            @Override
            public Counter skippedRecordsCounter() {
                return skipped;
            }

            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
            }
        };
    }

    /** What {@code source}'s builder validated, for tests outside the source package. */
    public static IggySourceConfig config(IggySource<?> source) {
        return source.config();
    }

    public static IggyConnectionConfig connection(IggyServerExtension iggy) {
        return IggyConnectionConfig.builder()
                .setAddress(iggy.address())
                .setCredentials(iggy.username(), iggy.password())
                .setConnectTimeout(Duration.ofSeconds(5))
                .setRequestTimeout(Duration.ofSeconds(10))
                .build();
    }

    public static List<byte[]> utf8(String... values) {
        List<byte[]> payloads = new ArrayList<>();
        for (String value : values) {
            payloads.add(value.getBytes(StandardCharsets.UTF_8));
        }
        return payloads;
    }

    public static List<byte[]> numbered(String prefix, int from, int toExclusive) {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = from; i < toExclusive; i++) {
            payloads.add((prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        return payloads;
    }
}
