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
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.source.internal.IggySourceConfig;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

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

    /** How long a test waits for a job to read or to fail. */
    public static final Duration JOB_DEADLINE = Duration.ofSeconds(60);

    /** Reads on until the job fails; the connector's exception, which the test requires. */
    public static IggyConnectorException ourFailure(CloseableIterator<String> it) throws Exception {
        Throwable failure =
                CompletableFuture.supplyAsync(
                                () -> {
                                    int readAfter = 0;
                                    try {
                                        while (it.hasNext()) {
                                            it.next();
                                            readAfter++;
                                        }
                                    } catch (RuntimeException e) {
                                        return (Throwable) e;
                                    }
                                    return new AssertionError(
                                            "the job ended without error after reading "
                                                    + readAfter);
                                })
                        .get(JOB_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        Optional<IggyConnectorException> ours =
                ExceptionUtils.findThrowable(failure, IggyConnectorException.class);
        assertThat(ours).as("failure: %s", failure).isPresent();
        return ours.get();
    }

    public static List<String> take(CloseableIterator<String> it, int count) throws Exception {
        return CompletableFuture.supplyAsync(
                        () -> {
                            List<String> taken = new ArrayList<>();
                            while (taken.size() < count) {
                                taken.add(it.next());
                            }
                            return taken;
                        })
                .get(JOB_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }
}
