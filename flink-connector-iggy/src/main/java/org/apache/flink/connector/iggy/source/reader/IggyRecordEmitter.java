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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.internal.SkippedRecordsLog;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deserializes each message on the task thread, emits the records with the message's server
 * timestamp (µs to ms) and advances the split's next offset.
 */
@Internal
public final class IggyRecordEmitter<T>
        implements RecordEmitter<IggyMessage, T, IggyPartitionSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(IggyRecordEmitter.class);

    private final IggyRecordDeserializationSchema<T> deserializer;
    private final boolean skipUndecodable;
    private final Counter bytesIn;
    private final SkippedRecordsLog skippedLog;
    private final TimestampedCollector<T> collector = new TimestampedCollector<>();

    IggyRecordEmitter(
            IggyRecordDeserializationSchema<T> deserializer,
            boolean skipUndecodable,
            Counter bytesIn,
            Counter skipped) {
        this.deserializer = deserializer;
        this.skipUndecodable = skipUndecodable;
        this.bytesIn = bytesIn;
        this.skippedLog = new SkippedRecordsLog(LOG, "that could not be deserialized", skipped);
    }

    @Override
    public void emitRecord(
            IggyMessage message, SourceOutput<T> output, IggyPartitionSplitState state)
            throws Exception {
        // The fetcher hands over each offset once, in order, from the split's next offset on.
        long offset = message.offset();
        IggyPartitionSplit split = state.split();
        collector.output = output;
        collector.timestamp = message.timestampMillis();
        try {
            deserializer.deserialize(message, collector);
        } catch (Exception e) {
            if (!skipUndecodable) {
                throw IggyClients.asRootCause(
                        "Cannot deserialize the message at offset "
                                + offset
                                + " of partition "
                                + split.partitionId()
                                + " of topic "
                                + split.topic()
                                + " in stream "
                                + split.stream()
                                + ": "
                                + IggyClients.describe(e)
                                + ". Fix the producer or the deserializer, or skip undecodable"
                                + " records: 'scan.skip-undecodable-records' = 'true' in SQL,"
                                + " setSkipUndecodableRecords(true) on the IggySource builder.",
                        e);
            }
            skippedLog.skipped(message, e);
        }
        bytesIn.inc(message.sizeInBytes());
        state.setNextOffset(offset + 1);
    }

    /** Reused per message. */
    private static final class TimestampedCollector<T> implements Collector<T> {
        SourceOutput<T> output;
        long timestamp;

        @Override
        public void collect(T record) {
            output.collect(record, timestamp);
        }

        @Override
        public void close() {}
    }
}
