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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.DeleteEncoding;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * What an {@code upsert-iggy} deletion looks like under a {@link DeleteEncoding}: the payload and
 * headers the sink sends, and the test the source applies to every keyed message.
 *
 * @param payload the payload a deletion sends; {@code null} under {@code 'none'}
 */
@Internal
record IggyDeletionMessage(DeleteEncoding encoding, @Nullable byte[] payload)
        implements FilterFunction<IggyMessage> {

    private static final long serialVersionUID = 1L;

    /** The user header (string key) that marks a deletion under {@code 'header'}. */
    static final String OP_HEADER = "flink.op";

    /** The value (string kind, UTF-8) of {@link #OP_HEADER} on a deletion. */
    static final String OP_DELETE = "d";

    private static final byte[] OP_DELETE_BYTES = OP_DELETE.getBytes(StandardCharsets.UTF_8);

    static IggyDeletionMessage of(DeleteEncoding encoding, @Nullable String customPayload) {
        return new IggyDeletionMessage(
                encoding,
                switch (encoding) {
                    case CUSTOM_PAYLOAD ->
                            Objects.requireNonNull(customPayload).getBytes(StandardCharsets.UTF_8);
                    case NONE -> null;
                    default -> new byte[0];
                });
    }

    /** Whether deletes can be written (and recognized) at all. */
    boolean isEncoded() {
        return encoding != DeleteEncoding.NONE;
    }

    /** {@code headers} and the user headers a deletion sends besides them and the key header. */
    IggyHeaders addTo(IggyHeaders headers) {
        return encoding == DeleteEncoding.HEADER
                ? headers.with(OP_HEADER, IggyHeaderValue.ofString(OP_DELETE))
                : headers;
    }

    /** Whether {@code message} is a deletion. */
    @Override
    public boolean filter(IggyMessage message) {
        return switch (encoding) {
            case HEADER ->
                    message.header(OP_HEADER)
                            .map(v -> Arrays.equals(v.bytes(), OP_DELETE_BYTES))
                            .orElse(false);
            case NONE -> false;
            default -> Arrays.equals(message.payload(), payload);
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IggyDeletionMessage that
                && encoding == that.encoding
                && Arrays.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(encoding, Arrays.hashCode(payload));
    }
}
