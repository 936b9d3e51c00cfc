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

import org.apache.flink.annotation.PublicEvolving;

import javax.annotation.Nullable;

/**
 * Builds an {@link IggySink} that sends every record as one message.
 *
 * <pre>{@code
 * IggySink<String> sink = IggySink.<String>builder()
 *     .setConnection(IggyConnectionConfig.builder().setAddress("iggy:8090").build())
 *     .setStream("orders")
 *     .setTopic("enriched")
 *     .setRecordSerializer(IggyRecordSerializationSchema.<String>builder()
 *         .setValueSerializationSchema(new SimpleStringSchema())
 *         .build())
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class IggySinkBuilder<IN> extends IggySinkBuilderBase<IggySinkBuilder<IN>> {

    @Nullable private IggyRecordSerializationSchema<IN> recordSerializer;

    IggySinkBuilder() {}

    /** Required: payload, headers, id, timestamp and partition of each record's message. */
    public IggySinkBuilder<IN> setRecordSerializer(
            IggyRecordSerializationSchema<IN> recordSerializer) {
        this.recordSerializer = recordSerializer;
        return this;
    }

    public IggySink<IN> build() {
        IggyWriterConfig config = buildWriterConfig();
        if (recordSerializer == null) {
            throw new IllegalArgumentException(
                    "The record serializer is missing: call setRecordSerializer");
        }
        return new IggySink<>(config, recordSerializer);
    }
}
