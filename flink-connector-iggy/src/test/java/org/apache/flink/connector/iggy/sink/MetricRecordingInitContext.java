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
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSinkWriterMetricGroup;

/**
 * A writer's init context whose metric group keeps what the writer registers in it by name ({@link
 * RecordingMetricGroup}). Used by the test's thread only.
 */
final class MetricRecordingInitContext extends TestSinkInitContext {

    private final RecordingMetricGroup metrics = new RecordingMetricGroup();
    private final InternalSinkWriterMetricGroup group = InternalSinkWriterMetricGroup.wrap(metrics);

    @Override
    public SinkWriterMetricGroup metricGroup() {
        return group;
    }

    /** What the writer registered. */
    RecordingMetricGroup metrics() {
        return metrics;
    }
}
