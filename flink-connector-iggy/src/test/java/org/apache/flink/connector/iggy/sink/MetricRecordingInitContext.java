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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.connector.base.sink.writer.TestSinkInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSinkWriterMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;

import java.util.HashMap;
import java.util.Map;

/**
 * A writer's init context whose metric group keeps what the writer registers in it by name, so a
 * test reads a metric as a reporter would. Used by the test's thread only.
 */
final class MetricRecordingInitContext extends TestSinkInitContext {

    private final Map<String, Metric> metrics = new HashMap<>();

    private final InternalSinkWriterMetricGroup group =
            InternalSinkWriterMetricGroup.wrap(
                    new UnregisteredMetricGroups.UnregisteredOperatorMetricGroup() {
                        @Override
                        public <C extends Counter> C counter(String name, C counter) {
                            metrics.put(name, counter);
                            return counter;
                        }

                        @Override
                        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
                            metrics.put(name, gauge);
                            return gauge;
                        }
                    });

    @Override
    public SinkWriterMetricGroup metricGroup() {
        return group;
    }

    /** The counter registered under {@code name}; fails the test if there is none. */
    Counter counter(String name) {
        Metric metric = metrics.get(name);
        if (!(metric instanceof Counter)) {
            throw new AssertionError("no counter '" + name + "' among " + metrics.keySet());
        }
        return (Counter) metric;
    }

    /** The value of the gauge registered under {@code name}; fails the test if there is none. */
    Object gaugeValue(String name) {
        Metric metric = metrics.get(name);
        if (!(metric instanceof Gauge)) {
            throw new AssertionError("no gauge '" + name + "' among " + metrics.keySet());
        }
        return ((Gauge<?>) metric).getValue();
    }
}
