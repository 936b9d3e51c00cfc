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

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;

import java.util.HashMap;
import java.util.Map;

/**
 * An operator's metric group that keeps what is registered in it by name, so that a test reads a
 * metric as a reporter would. Used by the test's thread only.
 */
public final class RecordingMetricGroup
        extends UnregisteredMetricGroups.UnregisteredOperatorMetricGroup {

    /** Created at the first registration: Flink's constructor already registers I/O counters. */
    private Map<String, Metric> registered;

    @Override
    public <C extends Counter> C counter(String name, C counter) {
        keep(name, counter);
        return counter;
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        keep(name, gauge);
        return gauge;
    }

    private void keep(String name, Metric metric) {
        if (registered == null) {
            registered = new HashMap<>();
        }
        registered.put(name, metric);
    }

    /** The metric registered under {@code name}; fails the test if there is none. */
    public Metric registered(String name) {
        Metric metric = registered == null ? null : registered.get(name);
        if (metric == null) {
            throw new AssertionError("no metric '" + name + "' among " + registered);
        }
        return metric;
    }

    /** The counter registered under {@code name}. */
    Counter registeredCounter(String name) {
        return (Counter) registered(name);
    }

    /** The value of the gauge registered under {@code name}. */
    Object gaugeValue(String name) {
        return ((Gauge<?>) registered(name)).getValue();
    }
}
