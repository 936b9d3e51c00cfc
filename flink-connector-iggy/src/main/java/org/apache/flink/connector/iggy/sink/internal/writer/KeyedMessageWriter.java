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
package org.apache.flink.connector.iggy.sink.internal.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggyKeyedMapSink;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;
import org.apache.flink.connector.iggy.sink.internal.send.IggyBatchSender;
import org.apache.flink.connector.iggy.sink.reconcile.KeyedMessage;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * The writer of the keyed-map sink: sends the {@link KeyedMessage}s its reconcile step passes on,
 * adding the key header and choosing the partition (one, or by key).
 *
 * @param <IN> the sink's declared input type; its elements are {@link KeyedMessage}s (see {@link
 *     IggyKeyedMapSink#addPreWriteTopology})
 */
@Internal
public final class KeyedMessageWriter<IN> extends IggySinkWriter<IN> {

    private final boolean partitionByKey;
    private final long partition;
    @Nullable private final String keyHeader;

    public KeyedMessageWriter(
            IggyWriterConfig config,
            boolean partitionByKey,
            long partition,
            @Nullable String keyHeader,
            Supplier<IggyBatchSender> openSender,
            SinkDelivery.Factory delivery,
            WriterInitContext context) {
        super(config, openSender, delivery, context);
        this.partitionByKey = partitionByKey;
        this.partition = partition;
        this.keyHeader = keyHeader;
    }

    @Override
    public void write(IN element, Context context) throws IOException, InterruptedException {
        KeyedMessage message = (KeyedMessage) element;
        byte[] key = message.key();
        IggySinkTarget topic = config.topicOf(message.target());
        IggyTopicPartition target =
                topic.partition(
                        partitionByKey
                                ? Partitioners.partitionForKey(key, partitionCounts().of(topic))
                                : partition);
        long timestamp = message.originTimestampMicros();
        add(
                target,
                new OutgoingMessage(
                        message.payload(),
                        withKeyHeader(message.headers(), key),
                        message.messageId(),
                        timestamp != 0
                                ? timestamp
                                : BuiltRecordSerializationSchema.originTimestampMicros(
                                        context.timestamp())));
    }

    private IggyHeaders withKeyHeader(IggyHeaders headers, byte[] key) {
        if (keyHeader == null) {
            return headers;
        }
        return headers.with(keyHeader, IggyHeadersInternals.value(IggyHeaderValue.Kind.RAW, key));
    }
}
