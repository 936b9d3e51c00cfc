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
package org.apache.flink.connector.iggy.common.shim;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Flink 1.20's {@link Sink}: {@code createWriter(InitContext)} is still abstract there, although
 * Flink 1.20 itself only calls {@code createWriter(WriterInitContext)}. The connector's sinks
 * implement the latter; this interface answers the former, which nothing calls, with an error.
 * Flink 2.x removed {@code InitContext}: its variant of this interface adds nothing.
 */
@Internal
public interface FlinkSink<IN> extends Sink<IN> {

    @Override
    SinkWriter<IN> createWriter(WriterInitContext context) throws java.io.IOException;

    /** Not called by Flink 1.20; Iggy sinks need the {@link WriterInitContext}. */
    @Override
    @Deprecated
    default SinkWriter<IN> createWriter(InitContext context) {
        throw new UnsupportedOperationException(
                "Iggy sinks are created with createWriter(WriterInitContext), as Flink 1.20 does.");
    }
}
