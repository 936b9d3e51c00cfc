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
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.writer.BuiltRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.internal.writer.Partitioners;
import org.apache.flink.util.function.SerializableFunction;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds an {@link IggySink} that sends every record as one message.
 *
 * <pre>{@code
 * IggySink<Order> sink = IggySink.<Order>builder()
 *     .setConnection(IggyConnectionConfig.builder().setAddress("iggy:8090").build())
 *     .setStream("orders")
 *     .setTopic("enriched")
 *     .setValueSerializationSchema(new JsonSerializationSchema<>())
 *     .setKeySerializationSchema(order -> order.customerId().getBytes(UTF_8))
 *     .setPartitionByKey()
 *     .build();
 * }</pre>
 *
 * <p>Each message is made from the value serialization schema (required) and the optional key
 * schema, key header, partition choice, headers and message id functions, or entirely by an {@link
 * IggyRecordSerializationSchema} ({@link #setRecordSerializer}).
 *
 * @param <IN> the record type
 */
@PublicEvolving
public final class IggySinkBuilder<IN> extends IggySinkBuilderBase<IggySinkBuilder<IN>> {

    @Nullable private IggyRecordSerializationSchema<IN> recordSerializer;
    @Nullable private SerializationSchema<IN> valueSchema;
    @Nullable private SerializationSchema<IN> keySchema;
    @Nullable private IggyPartitioner<IN> partitioner;
    @Nullable private IggyTopicSelector<IN> topicSelector;
    @Nullable private SerializableFunction<IN, IggyHeaders> headersFunction;
    @Nullable private SerializableFunction<IN, BigInteger> messageIdFunction;

    IggySinkBuilder() {}

    /** Required unless a record serializer is set: the payload of each message, never null. */
    public IggySinkBuilder<IN> setValueSerializationSchema(SerializationSchema<IN> valueSchema) {
        this.valueSchema = valueSchema;
        return this;
    }

    /** The record's key bytes, for {@link #setPartitionByKey()} and the key header. */
    public IggySinkBuilder<IN> setKeySerializationSchema(SerializationSchema<IN> keySchema) {
        this.keySchema = keySchema;
        return this;
    }

    /**
     * Chooses each record's partition, e.g. {@link IggyPartitioner#roundRobin()}. Replaces {@link
     * #setPartition} and {@link #setPartitionByKey()}.
     */
    public IggySinkBuilder<IN> setPartitioner(IggyPartitioner<IN> partitioner) {
        this.partitioner = partitioner;
        this.partitionByKey = false;
        this.partitionChosen = true;
        return this;
    }

    /**
     * Chooses each record's topic; a record it routes nowhere goes to the sink's topic ({@link
     * #setTopic}), which is then optional. Partitioners see the partition count of the record's.
     */
    public IggySinkBuilder<IN> setTopicSelector(IggyTopicSelector<IN> topicSelector) {
        this.topicSelector = topicSelector;
        return this;
    }

    @Override
    void partitionerChosen() {
        partitioner = null;
    }

    /** User headers per record; {@link IggyHeaders#empty()} for none, never {@code null}. */
    public IggySinkBuilder<IN> setHeadersFunction(
            SerializableFunction<IN, IggyHeaders> headersFunction) {
        this.headersFunction = headersFunction;
        return this;
    }

    /**
     * Deterministic message ids per record (unsigned 128 bit, non-zero), so that the server's
     * deduplication drops a record replayed after a failover. Default: the server's random ids.
     */
    public IggySinkBuilder<IN> setMessageIdFunction(
            SerializableFunction<IN, BigInteger> messageIdFunction) {
        this.messageIdFunction = messageIdFunction;
        return this;
    }

    /**
     * Full control over each record's message, topic included ({@link IggySinkRecord#withTarget});
     * replaces (and excludes) the other message options. The sink's topic is then optional.
     */
    public IggySinkBuilder<IN> setRecordSerializer(
            IggyRecordSerializationSchema<IN> recordSerializer) {
        this.recordSerializer = recordSerializer;
        return this;
    }

    /**
     * @throws IllegalArgumentException naming every missing or invalid option
     */
    public IggySink<IN> build() {
        List<String> problems = new ArrayList<>();
        IggyWriterConfig config =
                writerConfig(problems, topicSelector != null || recordSerializer != null);
        IggyRecordSerializationSchema<IN> schema = recordSerializer(problems);
        boolean exactlyOnce =
                exactlyOnce(problems, messageIdFunction != null, "setMessageIdFunction");
        failOnProblems("IggySink", problems);
        return exactlyOnce
                ? new ExactlyOnceIggySink<>(config, schema)
                : new IggySink<>(config, schema);
    }

    @Nullable
    private IggyRecordSerializationSchema<IN> recordSerializer(List<String> problems) {
        if (recordSerializer != null) {
            Map<String, Boolean> set = new LinkedHashMap<>();
            set.put("setValueSerializationSchema", valueSchema != null);
            set.put("setKeySerializationSchema", keySchema != null);
            set.put("setKeyHeader", keyHeader != null);
            set.put("setPartition/setPartitionByKey/setPartitioner", partitionChosen);
            set.put("setTopicSelector", topicSelector != null);
            set.put("setHeadersFunction", headersFunction != null);
            set.put("setMessageIdFunction", messageIdFunction != null);
            List<String> replaced = new ArrayList<>(set.keySet());
            replaced.removeIf(option -> !set.get(option));
            if (!replaced.isEmpty()) {
                problems.add(
                        "the record serializer makes the whole message, so "
                                + String.join(", ", replaced)
                                + " would be ignored: drop them or the record serializer");
            }
            return recordSerializer;
        }
        int before = problems.size();
        if (valueSchema == null) {
            problems.add(
                    "the value serialization schema is not set (setValueSerializationSchema, or"
                            + " setRecordSerializer)");
        }
        if (keySchema == null && keyHeader != null) {
            problems.add(
                    "the key header '"
                            + keyHeader
                            + "' needs key bytes (setKeySerializationSchema)");
        }
        if (keySchema == null && partitionByKey) {
            problems.add("partitioning by key needs key bytes (setKeySerializationSchema)");
        }
        if (problems.size() > before) {
            return null;
        }
        IggyPartitioner<IN> chosen =
                partitioner != null
                        ? partitioner
                        : partitionByKey
                                ? new Partitioners.ByKey<>()
                                : new Partitioners.Fixed<>(partition);
        return new BuiltRecordSerializationSchema<>(
                valueSchema,
                keySchema,
                keyHeader,
                chosen,
                topicSelector,
                headersFunction,
                messageIdFunction);
    }
}
