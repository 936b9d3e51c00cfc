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
package org.apache.flink.connector.iggy.testutils.server;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.MessageHeader;
import org.apache.iggy.message.MessageId;
import org.apache.iggy.message.Partitioning;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.topic.CompressionAlgorithm;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of the embedded server as seen by plain SDK loops: a blocking send loop, a blocking
 * poll loop, and a pipelined async send loop, with 100-byte messages in batches of 1000; then the
 * same send and poll loops with raw protocol frames, to show the server's own capacity without the
 * SDK's encoding costs. Not a test; it prints figures.
 *
 * <p>Arguments (all optional): {@code [messages] [batch size] [payload bytes]}, default 2,000,000
 * 1000 100.
 */
public final class EmbeddedIggyServerBenchmark {
    private static final String STREAM = "benchmark";
    private static final int LOGIN_USER = 38;
    private static final int POLL_MESSAGES = 100;
    private static final int SEND_MESSAGES = 101;

    private EmbeddedIggyServerBenchmark() {}

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int batchSize = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int payloadSize = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int batches = total / batchSize;

        try (EmbeddedIggyServer server =
                        EmbeddedIggyServer.start(EmbeddedIggyServer.Config.defaults());
                IggyTcpClient client =
                        IggyTcpClient.builder()
                                .host(server.host())
                                .port(server.port())
                                .credentials("iggy", "iggy")
                                .buildAndLogin()) {
            client.streams().createStream(STREAM);
            for (String topic : List.of("warmup", "blocking", "async", "raw")) {
                client.topics()
                        .createTopic(
                                StreamId.of(STREAM),
                                1L,
                                CompressionAlgorithm.None,
                                BigInteger.ZERO,
                                BigInteger.ZERO,
                                Optional.empty(),
                                topic);
            }
            List<Message> batch = batch(batchSize, payloadSize);
            System.out.printf(
                    "Embedded Iggy server benchmark: %,d messages of %d bytes, batches of %d%n",
                    batches * batchSize, payloadSize, batchSize);

            // Let the JIT settle on both sides before measuring.
            sendBlocking(client, "warmup", batch, Math.max(1, batches / 5));
            pollBlocking(client, "warmup", batchSize, (long) Math.max(1, batches / 5) * batchSize);

            long start = System.nanoTime();
            sendBlocking(client, "blocking", batch, batches);
            report("send (blocking, sequential)", start, batches * batchSize, payloadSize);

            start = System.nanoTime();
            long polled = pollBlocking(client, "blocking", batchSize, (long) batches * batchSize);
            report("poll (blocking, sequential)", start, polled, payloadSize);

            start = System.nanoTime();
            sendRaw(server, "raw", batchSize, payloadSize, batches);
            report("send (raw frames, no SDK)", start, batches * batchSize, payloadSize);

            start = System.nanoTime();
            polled = pollRaw(server, "raw", batchSize, (long) batches * batchSize);
            report("poll (raw frames, no SDK)", start, polled, payloadSize);

            AsyncIggyTcpClient async =
                    AsyncIggyTcpClient.builder()
                            .host(server.host())
                            .port(server.port())
                            .credentials("iggy", "iggy")
                            .buildAndLogin()
                            .get(30, TimeUnit.SECONDS);
            try {
                start = System.nanoTime();
                sendAsync(async, "async", batch, batches, 4);
                report("send (async, 4 in flight)", start, batches * batchSize, payloadSize);
            } finally {
                async.close().get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void sendBlocking(
            IggyTcpClient client, String topic, List<Message> batch, int batches) {
        for (int i = 0; i < batches; i++) {
            client.messages()
                    .sendMessages(
                            StreamId.of(STREAM),
                            TopicId.of(topic),
                            Partitioning.partitionId(0L),
                            batch);
        }
    }

    private static long pollBlocking(
            IggyTcpClient client, String topic, int batchSize, long expected) {
        long offset = 0;
        while (offset < expected) {
            PolledMessages polled =
                    client.messages()
                            .pollMessages(
                                    StreamId.of(STREAM),
                                    TopicId.of(topic),
                                    Optional.of(0L),
                                    Consumer.of(1L),
                                    PollingStrategy.offset(BigInteger.valueOf(offset)),
                                    (long) batchSize,
                                    false);
            if (polled.messages().isEmpty()) {
                throw new IllegalStateException("poll returned nothing at offset " + offset);
            }
            offset += polled.messages().size();
        }
        return offset;
    }

    private static void sendAsync(
            AsyncIggyTcpClient client, String topic, List<Message> batch, int batches, int inFlight)
            throws Exception {
        List<CompletableFuture<Void>> window = new ArrayList<>();
        for (int i = 0; i < batches; i++) {
            if (window.size() == inFlight) {
                window.remove(0).get(60, TimeUnit.SECONDS);
            }
            window.add(
                    client.messages()
                            .sendMessages(
                                    StreamId.of(STREAM),
                                    TopicId.of(topic),
                                    Partitioning.partitionId(0L),
                                    batch));
        }
        for (CompletableFuture<Void> send : window) {
            send.get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * The same send loop with a pre-encoded frame on a plain socket: it shows what the server
     * itself sustains when the SDK's encoding is taken out of the picture.
     */
    private static void sendRaw(
            EmbeddedIggyServer server, String topic, int batchSize, int payloadSize, int batches)
            throws IOException {
        byte[] streamName = STREAM.getBytes(StandardCharsets.UTF_8);
        byte[] topicName = topic.getBytes(StandardCharsets.UTF_8);
        int metadataLength = (2 + streamName.length) + (2 + topicName.length) + 6 + 4;
        int messageSize = 64 + payloadSize;
        int payloadLength = 4 + metadataLength + 16 * batchSize + messageSize * batchSize;
        ByteBuffer frame = ByteBuffer.allocate(8 + payloadLength).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(4 + payloadLength).putInt(SEND_MESSAGES).putInt(metadataLength);
        frame.put((byte) 2).put((byte) streamName.length).put(streamName);
        frame.put((byte) 2).put((byte) topicName.length).put(topicName);
        frame.put((byte) 2).put((byte) 4).putInt(0); // partition id 0
        frame.putInt(batchSize);
        for (int i = 1; i <= batchSize; i++) {
            frame.putInt(0).putInt(i * messageSize).putLong(0);
        }
        for (int i = 0; i < batchSize; i++) {
            frame.put(new byte[48]).putInt(0).putInt(payloadSize).putLong(0);
            frame.put(new byte[payloadSize]);
        }
        try (RawConnection connection = RawConnection.open(server)) {
            for (int i = 0; i < batches; i++) {
                connection.request(frame.array());
            }
        }
    }

    private static long pollRaw(
            EmbeddedIggyServer server, String topic, int batchSize, long expected)
            throws IOException {
        byte[] streamName = STREAM.getBytes(StandardCharsets.UTF_8);
        byte[] topicName = topic.getBytes(StandardCharsets.UTF_8);
        int payloadLength = 7 + (2 + streamName.length) + (2 + topicName.length) + 5 + 9 + 5;
        ByteBuffer frame = ByteBuffer.allocate(8 + payloadLength).order(ByteOrder.LITTLE_ENDIAN);
        long read = 0;
        try (RawConnection connection = RawConnection.open(server)) {
            while (read < expected) {
                frame.clear();
                frame.putInt(4 + payloadLength).putInt(POLL_MESSAGES);
                frame.put((byte) 1).put((byte) 1).put((byte) 4).putInt(1); // consumer 1
                frame.put((byte) 2).put((byte) streamName.length).put(streamName);
                frame.put((byte) 2).put((byte) topicName.length).put(topicName);
                frame.put((byte) 1).putInt(0); // partition 0
                frame.put((byte) 1).putLong(read); // by offset
                frame.putInt(batchSize).put((byte) 0);
                byte[] reply = connection.request(frame.array());
                int count = ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
                if (count == 0) {
                    throw new IllegalStateException("poll returned nothing at offset " + read);
                }
                read += count;
            }
        }
        return read;
    }

    /** One socket that sends a frame and reads the reply, failing on an error status. */
    private static final class RawConnection implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;

        private RawConnection(Socket socket) throws IOException {
            this.socket = socket;
            this.in =
                    new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            this.out = socket.getOutputStream();
        }

        static RawConnection open(EmbeddedIggyServer server) throws IOException {
            Socket socket = new Socket(server.host(), server.port());
            socket.setTcpNoDelay(true);
            RawConnection connection = new RawConnection(socket);
            byte[] login = {4, 'i', 'g', 'g', 'y', 4, 'i', 'g', 'g', 'y', 0, 0, 0, 0, 0, 0, 0, 0};
            ByteBuffer frame = ByteBuffer.allocate(8 + login.length).order(ByteOrder.LITTLE_ENDIAN);
            frame.putInt(4 + login.length).putInt(LOGIN_USER).put(login);
            connection.request(frame.array());
            return connection;
        }

        byte[] request(byte[] frame) throws IOException {
            out.write(frame);
            out.flush();
            int status = Integer.reverseBytes(in.readInt());
            int length = Integer.reverseBytes(in.readInt());
            byte[] payload = new byte[length];
            in.readFully(payload);
            if (status != 0) {
                throw new IllegalStateException("server error " + status);
            }
            return payload;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static List<Message> batch(int size, int payloadSize) {
        List<Message> messages = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            byte[] payload = new byte[payloadSize];
            payload[0] = (byte) i;
            MessageHeader header =
                    new MessageHeader(
                            BigInteger.ZERO,
                            MessageId.serverGenerated(),
                            BigInteger.ZERO,
                            BigInteger.ZERO,
                            BigInteger.ZERO,
                            0L,
                            (long) payloadSize,
                            BigInteger.ZERO);
            messages.add(new Message(header, payload, Map.of()));
        }
        return messages;
    }

    private static void report(String what, long startNanos, long messages, int payloadSize) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf(
                "%-30s %,12.0f msg/s %8.1f MB/s payload (%,d messages in %.2f s)%n",
                what,
                messages / seconds,
                messages * (double) payloadSize / seconds / 1e6,
                messages,
                seconds);
    }
}
