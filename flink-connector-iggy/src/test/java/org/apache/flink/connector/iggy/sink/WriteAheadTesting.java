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

import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;
import org.apache.flink.connector.iggy.sink.internal.writeahead.WriteAheadFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads a committable's messages, wherever they are kept. */
public final class WriteAheadTesting {

    private WriteAheadTesting() {}

    /** The committable's messages in order, each with its final id. */
    public static List<OutgoingMessage> messages(IggyCommittable committable) {
        List<OutgoingMessage> messages = new ArrayList<>(committable.messageCount());
        try (WriteAheadFile.Reader reader = committable.openMessages()) {
            for (int i = 0; i < committable.messageCount(); i++) {
                messages.add(reader.next());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return messages;
    }

    /** The committable's payloads in order, as UTF-8 text. */
    public static List<String> texts(IggyCommittable committable) {
        List<String> texts = new ArrayList<>();
        for (OutgoingMessage m : messages(committable)) {
            texts.add(new String(m.payload(), StandardCharsets.UTF_8));
        }
        return texts;
    }
}
