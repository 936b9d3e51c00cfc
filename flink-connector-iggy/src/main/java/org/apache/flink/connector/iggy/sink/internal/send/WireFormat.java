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
package org.apache.flink.connector.iggy.sink.internal.send;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConnectorException;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.IggyRecordSerializationSchema;
import org.apache.flink.connector.iggy.sink.IggySinkRecord;
import org.apache.flink.connector.iggy.sink.internal.config.IggyWriterConfig;

import java.math.BigInteger;

/**
 * The messages the writer hands to the sender, and the limits the server enforces on each. Ids are
 * kept as the wire carries them: the keyed-map sink's ids arrive in that form, and an id given as a
 * number is converted once here.
 */
@Internal
public final class WireFormat {

    /**
     * Iggy 0.8's largest payload of one message; a larger one gets {@link
     * IggyErrorCode#TOO_BIG_MESSAGE_PAYLOAD}.
     */
    static final long MAX_PAYLOAD_BYTES = 64_000_000L;

    /**
     * Iggy 0.8's largest user headers of one message, as encoded; larger get {@link
     * IggyErrorCode#TOO_BIG_USER_HEADERS}.
     */
    static final long MAX_USER_HEADERS_BYTES = 100_000L;

    private WireFormat() {}

    /** The message of a record of {@link IggyRecordSerializationSchema}. */
    public static OutgoingMessage message(IggySinkRecord record) {
        BigInteger id = record.messageId();
        return new OutgoingMessage(
                record.payload(),
                record.headers(),
                id == null ? null : wireId(id),
                record.originTimestampMicros());
    }

    /** An unsigned 128-bit id as the wire carries it: little-endian. */
    public static byte[] wireId(BigInteger id) {
        byte[] bigEndian = id.toByteArray();
        byte[] wire = new byte[16];
        for (int i = 0; i < Math.min(16, bigEndian.length); i++) {
            wire[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return wire;
    }

    /** Fails on a message the server would refuse for its size, before it spoils a batch. */
    public static void checkSize(
            OutgoingMessage message, IggyTopicPartition target, IggyWriterConfig config) {
        long payload = message.payload().length;
        if (payload > MAX_PAYLOAD_BYTES) {
            throw tooLarge(
                    "payload",
                    payload,
                    MAX_PAYLOAD_BYTES,
                    IggyErrorCode.TOO_BIG_MESSAGE_PAYLOAD,
                    target,
                    config);
        }
        long headers = message.headers().encodedLength();
        if (headers > MAX_USER_HEADERS_BYTES) {
            throw tooLarge(
                    "user headers",
                    headers,
                    MAX_USER_HEADERS_BYTES,
                    IggyErrorCode.TOO_BIG_USER_HEADERS,
                    target,
                    config);
        }
    }

    private static IggyConnectorException tooLarge(
            String part,
            long size,
            long limit,
            IggyErrorCode code,
            IggyTopicPartition target,
            IggyWriterConfig config) {
        return new IggyConnectorException(
                String.format(
                        "A record's message for %s at %s has %,d bytes of %s, but Iggy"
                                + " accepts at most %,d bytes of %s per message (the server"
                                + " would answer error %s). Make such records smaller or split"
                                + " them before the sink.",
                        target, config.connection().address(), size, part, limit, part, code));
    }
}
