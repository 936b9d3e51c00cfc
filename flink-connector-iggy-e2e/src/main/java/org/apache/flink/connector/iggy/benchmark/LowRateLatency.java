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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.IggySinkBuilder;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.apache.iggy.message.Message;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Send → append latency of {@code IggySink} at-least-once at a low, steady input rate: a
 * rate-limited generator writes the time it made each 100 B record (µs, in the record's first 8
 * bytes) into the record, the sink (chained, parallelism 1) sends it, and the in-JVM server stamps
 * its append time; the latency is the difference, for every record after the first tenth of the run
 * (connecting, the JIT). Both clocks are this JVM's. Used by the benchmark's main thread.
 */
final class LowRateLatency {

    private static final int PAYLOAD_BYTES = 100;

    private final SinkBenchmarkSetup setup;

    LowRateLatency(SinkBenchmarkSetup setup) {
        this.setup = setup;
    }

    /**
     * Runs {@code seconds} of input at {@code perSecond} records a second through a sink with
     * {@code options} applied to its builder.
     *
     * @return "median M ms, p99 P ms (N records)"
     */
    String run(double perSecond, int seconds, UnaryOperator<IggySinkBuilder<byte[]>> options)
            throws Exception {
        long records = Math.max(10, Math.round(perSecond * seconds));
        String stream = setup.newTopic();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSource(
                        new DataGeneratorSource<>(
                                i -> stamped(),
                                records,
                                RateLimiterStrategy.perSecond(perSecond),
                                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "stamped records")
                .sinkTo(
                        options.apply(
                                        IggySink.<byte[]>builder()
                                                .setConnection(setup.connection())
                                                .setStream(stream)
                                                .setTopic("t")
                                                .setValueSerializationSchema(b -> b))
                                .build());
        setup.runToEnd(env, "low-rate IggySink job");
        long skipped = records / 10;
        long[] micros = new long[(int) (records - skipped)];
        int n = 0;
        for (long offset = skipped; offset < records; ) {
            List<Message> page = setup.iggy().poll(stream, "t", 0, offset, 1000);
            for (Message m : page) {
                long made = ByteBuffer.wrap(m.payload()).getLong();
                micros[n++] = m.header().timestamp().longValueExact() - made;
            }
            offset += page.size();
        }
        setup.dropTopic(stream);
        Arrays.sort(micros, 0, n);
        return String.format(
                "median %.2f ms, p99 %.2f ms (%,d records)",
                micros[n / 2] / 1000.0, micros[(int) Math.min(n - 1, n * 99L / 100)] / 1000.0, n);
    }

    private static byte[] stamped() {
        Instant now = Instant.now();
        byte[] payload = new byte[PAYLOAD_BYTES];
        ByteBuffer.wrap(payload).putLong(now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
        return payload;
    }
}
