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
package org.apache.flink.connector.iggy.sink.internal.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.List;

/**
 * Where a record goes that names no topic of its own: the sink's topic ({@link Fixed}), or nowhere
 * when every record is routed ({@link None}), which fails such a record naming the fix.
 */
@Internal
public sealed interface DefaultTopic extends Serializable
        permits DefaultTopic.Fixed, DefaultTopic.None {

    /** The topic of a record that names {@code named} ({@code null}: none). */
    IggySinkTarget resolve(@Nullable IggySinkTarget named, IggyConnectionConfig connection);

    /** The sink's own topic, if it has one. */
    List<IggySinkTarget> topics();

    /** "topic T of stream S", or "stream S (topics chosen per record)", for messages. */
    String describe();

    /** What idempotent message ids are derived from unless the user names it. */
    String idNamespace();

    /** The sink writes {@code topic} unless a record names another. */
    record Fixed(IggySinkTarget topic) implements DefaultTopic {

        @Override
        public IggySinkTarget resolve(
                @Nullable IggySinkTarget named, IggyConnectionConfig connection) {
            return named != null ? named : topic;
        }

        @Override
        public List<IggySinkTarget> topics() {
            return List.of(topic);
        }

        @Override
        public String describe() {
            return topic.toString();
        }

        @Override
        public String idNamespace() {
            return topic.stream() + "/" + topic.topic();
        }
    }

    /** The sink has no topic of its own: every record must name one. */
    record None(IggyId stream) implements DefaultTopic {

        @Override
        public IggySinkTarget resolve(
                @Nullable IggySinkTarget named, IggyConnectionConfig connection) {
            if (named == null) {
                throw new IggyConfigurationException(
                        "A record names no topic, and the Iggy sink writing to stream "
                                + stream
                                + " at "
                                + connection.address()
                                + " has no topic of its own. Give every record a topic (the"
                                + " topic selector, IggySinkRecord.withTarget, or the 'topic'"
                                + " metadata column in SQL), or set the sink's topic (setTopic).");
            }
            return named;
        }

        @Override
        public List<IggySinkTarget> topics() {
            return List.of();
        }

        @Override
        public String describe() {
            return "stream " + stream + " (topics chosen per record)";
        }

        @Override
        public String idNamespace() {
            return stream + "/";
        }
    }
}
