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
package org.apache.flink.connector.iggy.sink.reconcile;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One change of the keyed-map sink as the message it may become, from the encoder through the
 * shuffle ({@link KeyedMessageSerializer}) and the reconcile step, which sets its message id, to
 * the writer. Nothing changes it after the reconcile step.
 */
@Internal
public final class KeyedMessage {

    private final byte[] key;
    private final boolean delete;
    @Nullable private final byte[] payload;
    private final IggyHeaders headers;
    private final long originTimestampMicros;
    @Nullable private final IggySinkTarget target;
    @Nullable private byte[] messageId;

    /**
     * @param payload {@code null} for a delete the sink cannot write
     * @param originTimestampMicros 0 for the record's timestamp or the time of writing
     * @param target {@code null} for the sink's own topic
     */
    KeyedMessage(
            byte[] key,
            boolean delete,
            @Nullable byte[] payload,
            IggyHeaders headers,
            long originTimestampMicros,
            @Nullable IggySinkTarget target,
            @Nullable byte[] messageId) {
        this.key = Objects.requireNonNull(key, "key");
        this.delete = delete;
        this.payload = payload;
        this.headers = headers;
        this.originTimestampMicros = originTimestampMicros;
        this.target = target;
        this.messageId = messageId;
    }

    /** The key now has the value {@code payload}. */
    public static KeyedMessage upsert(
            byte[] key, byte[] payload, IggyHeaders headers, long timestampMicros) {
        Objects.requireNonNull(payload, "payload");
        return new KeyedMessage(key, false, payload, headers, timestampMicros, null, null);
    }

    /** The key was deleted; {@code payload} announces it, null when deletes are unwritable. */
    public static KeyedMessage delete(
            byte[] key, @Nullable byte[] payload, IggyHeaders headers, long timestampMicros) {
        return new KeyedMessage(key, true, payload, headers, timestampMicros, null, null);
    }

    /** This change for {@code target} instead of the sink's own topic. */
    public KeyedMessage withTarget(IggySinkTarget target) {
        return new KeyedMessage(
                key,
                delete,
                payload,
                headers,
                originTimestampMicros,
                Objects.requireNonNull(target, "target"),
                messageId);
    }

    public static TypeInformation<KeyedMessage> typeInfo() {
        return new KeyedMessageSerializer.TypeInfo();
    }

    public byte[] key() {
        return key;
    }

    public boolean isDelete() {
        return delete;
    }

    @Nullable
    public byte[] payload() {
        return payload;
    }

    public IggyHeaders headers() {
        return headers;
    }

    public long originTimestampMicros() {
        return originTimestampMicros;
    }

    /** The topic the message goes to, or {@code null} for the sink's own. */
    @Nullable
    public IggySinkTarget target() {
        return target;
    }

    /**
     * The key the reconcile state is kept under: the key bytes as a Latin-1 string (savepoints hold
     * the state under this {@code String} key). A message routed to a topic is kept per (topic,
     * key): stream and topic come first, each followed by U+FFFF, which no Latin-1 key holds.
     */
    public String stateKey() {
        String bytes = new String(key, StandardCharsets.ISO_8859_1);
        if (target == null) {
            return bytes;
        }
        return target.stream().toString()
                + TOPIC_END
                + target.topic().toString()
                + TOPIC_END
                + bytes;
    }

    private static final char TOPIC_END = '\uFFFF';

    /** 16 bytes as the wire carries them (little-endian u128); {@code null}: the server's. */
    @Nullable
    public byte[] messageId() {
        return messageId;
    }

    /** Set once by the reconcile step when idempotent writes are on. */
    void setMessageId(byte[] messageId) {
        this.messageId = messageId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyedMessage that
                && delete == that.delete
                && originTimestampMicros == that.originTimestampMicros
                && Arrays.equals(key, that.key)
                && Arrays.equals(payload, that.payload)
                && Arrays.equals(messageId, that.messageId)
                && Objects.equals(target, that.target)
                && headers.equals(that.headers);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(payload);
    }

    /** Sizes only: keys and payloads may be confidential. */
    @Override
    public String toString() {
        return "%s(%d key bytes, %s payload bytes, %d headers%s)"
                .formatted(
                        delete ? "DELETE" : "UPSERT",
                        key.length,
                        payload == null ? "no" : payload.length,
                        headers.size(),
                        target != null ? ", to " + target : "");
    }
}
