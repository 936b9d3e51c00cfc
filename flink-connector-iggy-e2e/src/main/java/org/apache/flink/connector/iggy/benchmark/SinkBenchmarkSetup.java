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
package org.apache.flink.connector.iggy.benchmark;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.apache.iggy.message.Message;

import java.util.List;

/**
 * What every measurement of {@link SinkBenchmark} shares: the Iggy server and the Flink cluster,
 * both running for the whole benchmark, and the helpers that create the one-partition topic a run
 * writes to, run a job to its end and read the rate and the request sizes from the server's append
 * times. Immutable.
 *
 * @param iggy the in-JVM or external Iggy server
 * @param connection how clients and sinks connect to it
 * @param flink the one cluster every job is submitted to
 */
record SinkBenchmarkSetup(
        IggyServerExtension iggy, IggyConnectionConfig connection, MiniCluster flink) {

    /** {@code records} times the same payload, from Flink's generator source. */
    static DataStream<byte[]> payloads(
            StreamExecutionEnvironment env, byte[] payload, long records) {
        return env.fromSource(
                new DataGeneratorSource<>(
                        i -> payload,
                        records,
                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO),
                WatermarkStrategy.noWatermarks(),
                "payloads");
    }

    /** A new stream with topic "t" of one partition, of the server's default size. */
    String newTopic() {
        return newTopic(0);
    }

    /** A new stream with topic "t" of one partition and {@code maxTopicBytes} (0: default). */
    String newTopic(long maxTopicBytes) {
        String stream = iggy.uniqueName("sink-bench");
        iggy.createStream(stream);
        iggy.createTopic(stream, "t", 1, maxTopicBytes);
        return stream;
    }

    void dropTopic(String stream) {
        iggy.deleteStream(stream);
    }

    /**
     * Submits the environment's job and waits until it has finished; {@code what} names it.
     *
     * @return the job's id
     */
    JobID runToEnd(StreamExecutionEnvironment env, String what) throws Exception {
        JobGraph job = env.getStreamGraph().getJobGraph();
        flink.submitJob(job).get();
        JobResult result = flink.requestJobResult(job.getJobID()).get();
        if (!result.isSuccess()) {
            throw new IllegalStateException(
                    what + " failed", result.getSerializedThrowable().orElse(null));
        }
        return job.getJobID();
    }

    /**
     * Records ÷ the span between the server append times of the first and the last message. The
     * input spans the whole interval evenly, so this is the rate at which the input was processed.
     */
    double serverMeasuredRate(String stream, long records, long messages) {
        long first = timestampMicros(stream, 0);
        long last = timestampMicros(stream, messages - 1);
        double seconds = Math.max(1, last - first) / 1e6;
        return records / seconds;
    }

    /** Messages per send request: the server stamps all messages of one request alike. */
    double averageBatchSize(String stream, long messages) {
        long requests = 0;
        long previous = -1;
        for (long offset = 0; offset < messages; ) {
            List<Message> page = iggy.poll(stream, "t", 0, offset, 1000);
            for (Message m : page) {
                long timestamp = m.header().timestamp().longValueExact();
                if (timestamp != previous) {
                    requests++;
                    previous = timestamp;
                }
            }
            offset += page.size();
        }
        return (double) messages / Math.max(1, requests);
    }

    /** The server's append time of the message at {@code offset}, in microseconds. */
    long timestampMicros(String stream, long offset) {
        return iggy.poll(stream, "t", 0, offset, 1).get(0).header().timestamp().longValueExact();
    }

    long messagesCount(String stream) {
        return iggy.messagesCount(stream, "t", 0);
    }
}
