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
package org.apache.flink.connector.iggy.examples;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyMapChange;
import org.apache.flink.connector.iggy.sink.ExactlyOnceIggySink;
import org.apache.flink.connector.iggy.sink.ExactlyOnceKeyedMapSink;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.sink.internal.committer.IggyCommitter;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.source.IggyRecordDeserializationSchema;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;

/**
 * A test job for exactly-once on a real cluster: reads lines {@code s<i>=x} from topic {@code
 * events} and writes them with both exactly-once sinks: each line to topic {@code exactly-once}
 * (partition i mod 2), and the change key {@code k<i mod 20>} = {@code v<i / 40>} to topic {@code
 * exactly-once-map} through the keyed-map sink (every value arrives twice in a row, the second
 * unchanged). Batches of 5 messages, so a commit takes several sends.
 *
 * <p>When the file {@code pause-request} exists in the pause folder, the next commit that is
 * between two sends creates {@code paused} there and stops until its TaskManager is killed. The
 * file starts with the process id of that TaskManager: the commit may be one that a committer still
 * starting makes, on whichever TaskManager Flink restarted it.
 *
 * <pre>
 * --address host:port  --stream NAME  --pause-dir PATH  [--checkpoint-interval MS]
 * </pre>
 */
public final class ExactlyOnceClusterJob {

    public static final String EVENTS = "events";
    public static final String RECORDS = "exactly-once";
    public static final String MAP = "exactly-once-map";
    public static final String PAUSE_REQUEST = "pause-request";
    public static final String PAUSED = "paused";

    private ExactlyOnceClusterJob() {}

    public static void main(String[] args) throws Exception {
        String stream = JobArgs.required(args, "--stream");
        IggyConnectionConfig connection = JobArgs.connection(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(
                Long.parseLong(JobArgs.orDefault(args, "--checkpoint-interval", "300")));
        PauseBetweenSends pause = new PauseBetweenSends(JobArgs.required(args, "--pause-dir"));
        DataStream<String> lines =
                env.fromSource(
                                IggySource.<String>builder()
                                        .setConnection(connection)
                                        .setStream(stream)
                                        .setTopic(EVENTS)
                                        .setConsumerName("exactly-once-job")
                                        .setStartingOffsets(IggyStartingOffsets.earliest())
                                        .setDeserializer(
                                                IggyRecordDeserializationSchema.valueOnly(
                                                        new SimpleStringSchema()))
                                        .build(),
                                WatermarkStrategy.noWatermarks(),
                                "lines")
                        .uid("lines-source");
        lines.sinkTo(
                        ExactlyOnceIggySink.withBetweenSends(
                                IggySink.<String>builder()
                                        .setConnection(connection)
                                        .setStream(stream)
                                        .setTopic(RECORDS)
                                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setPartitioner(
                                                (line, key, payload, context) -> index(line) % 2)
                                        .setBatchSize(5)
                                        .build(),
                                pause))
                .name("exactly-once records")
                .uid("records-sink");
        lines.map(line -> IggyMapChange.upsert("k" + (index(line) % 20), "v" + (index(line) / 40)))
                .returns(
                        new org.apache.flink.api.common.typeinfo.TypeHint<
                                IggyMapChange<String, String>>() {})
                .sinkTo(
                        ExactlyOnceKeyedMapSink.withBetweenSends(
                                IggySink.<String, String>keyedMap()
                                        .setConnection(connection)
                                        .setStream(stream)
                                        .setTopic(MAP)
                                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                        .setValueSerializationSchema(new SimpleStringSchema())
                                        .setKeyHeader("key")
                                        .setBatchSize(5)
                                        .setReconcileUid("map-fingerprints")
                                        .build(),
                                pause))
                .name("exactly-once keyed map")
                .uid("map-sink");
        env.execute("exactly-once job on " + stream);
    }

    /** The i of a line {@code s<i>=x}. */
    static long index(String line) {
        return Long.parseLong(line.substring(1, line.indexOf('=')));
    }

    /**
     * The committers' hook: between two sends, if a pause was requested and none happened yet,
     * notes its process and the committable in {@code paused} and waits for the SIGKILL.
     */
    private static final class PauseBetweenSends implements IggyCommitter.BetweenSends {
        private static final long serialVersionUID = 1L;
        private final String pauseDir;

        PauseBetweenSends(String pauseDir) {
            this.pauseDir = pauseDir;
        }

        @Override
        public void run(IggyCommittable committable, int messagesSent) throws Exception {
            Path dir = Path.of(pauseDir);
            if (Files.exists(dir.resolve(PAUSE_REQUEST)) && !Files.exists(dir.resolve(PAUSED))) {
                // whole or not at all: the test reads it as soon as it exists
                Path note = Files.createTempFile(dir, PAUSED, ".tmp");
                Files.writeString(
                        note,
                        ProcessHandle.current().pid() + " " + committable + ", " + messagesSent);
                Files.move(note, dir.resolve(PAUSED), StandardCopyOption.ATOMIC_MOVE);
                // until SIGKILL
                new CompletableFuture<Void>().join();
            }
        }
    }
}
