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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.serialization.RuntimeContextInitializationContextAdapters;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggyTopicSelector;
import org.apache.flink.util.Collector;

/** Encodes each change ({@link ChangeEncoder}) before the keyed-map sink's {@code keyBy}. */
@Internal
public class ChangeEncodingFunction<IN> extends RichFlatMapFunction<IN, KeyedMessage> {

    private static final long serialVersionUID = 1L;

    private final ChangeEncoder<IN> encoder;
    private final IggyId stream;

    /**
     * @param stream the sink's stream, which the encoder's routing context names
     */
    public ChangeEncodingFunction(ChangeEncoder<IN> encoder, IggyId stream) {
        this.encoder = encoder;
        this.stream = stream;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        TaskInfo task = getRuntimeContext().getTaskInfo();
        encoder.open(
                RuntimeContextInitializationContextAdapters.serializationAdapter(
                        getRuntimeContext()),
                new Routing(
                        stream, task.getIndexOfThisSubtask(), task.getNumberOfParallelSubtasks()));
    }

    private record Routing(IggyId stream, int subtaskId, int parallelism)
            implements IggyTopicSelector.Context {}

    @Override
    public void flatMap(IN change, Collector<KeyedMessage> out) {
        KeyedMessage message = encoder.encode(change);
        if (message != null) {
            out.collect(message);
        }
    }
}
