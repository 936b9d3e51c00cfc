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
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.sink.IggySinkTarget;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The topic a sink table writes a row to: the table's own ({@link #unrouted()}), or the one the row
 * names in its writable 'topic' metadata column, which must be one of the topics the table allows
 * ('topic' = 'a;b', 'topic-pattern', or any topic of the stream).
 */
@Internal
sealed interface IggyRowRouting extends Serializable
        permits IggyRowRouting.Unrouted, IggyRowRouting.ByTopicColumn {

    /** The row's topic, or {@code null} for the table's own. */
    @Nullable
    IggySinkTarget targetOf(RowData row);

    /** Every row goes to the table's own topic. */
    static IggyRowRouting unrouted() {
        return Unrouted.INSTANCE;
    }

    /**
     * Each row to the topic in column {@code position}, as the table's options allow (validated by
     * {@link IggySinkOptions#validateSinkTopics}).
     */
    static IggyRowRouting byTopicColumn(ReadableConfig options, int position, String table) {
        Optional<String> pattern = options.getOptional(IggyConnectorOptions.TOPIC_PATTERN);
        Optional<String> topic = options.getOptional(IggyConnectorOptions.TOPIC);
        String allowed =
                pattern.orElseGet(
                        () ->
                                topic.isEmpty()
                                        ? "(?s).*"
                                        : IggyConnectorOptionsUtil.topics(options).stream()
                                                .map(Pattern::quote)
                                                .collect(Collectors.joining("|")));
        String described =
                pattern.map(p -> "'topic-pattern' = '" + p + "'")
                        .or(() -> topic.map(t -> "'topic' = '" + t + "'"))
                        .orElse("any topic of the stream");
        return new ByTopicColumn(
                IggyId.of(options.get(IggyConnectorOptions.STREAM)),
                position,
                Pattern.compile(allowed),
                described,
                table);
    }

    /** See {@link #unrouted()}. */
    enum Unrouted implements IggyRowRouting {
        INSTANCE;

        @Override
        @Nullable
        public IggySinkTarget targetOf(RowData row) {
            return null;
        }
    }

    /**
     * See {@link #byTopicColumn}: {@code allowed} matches the whole name of every topic the table
     * allows, as {@code described} in its options.
     */
    record ByTopicColumn(
            IggyId stream, int position, Pattern allowed, String described, String table)
            implements IggyRowRouting {

        @Override
        public IggySinkTarget targetOf(RowData row) {
            if (row.isNullAt(position)) {
                throw new IggyConfigurationException(
                        "A row for table "
                                + table
                                + " has a NULL 'topic' metadata column, but every row must name"
                                + " its topic ("
                                + described
                                + "). Filter such rows out or give them a topic.");
            }
            String topic = row.getString(position).toString();
            IggyId id = null;
            if (allowed.matcher(topic).matches()) {
                try {
                    id = IggyId.of(topic);
                } catch (IllegalArgumentException e) {
                    // not an Iggy name: refused below like a topic the table does not allow
                }
            }
            if (id == null) {
                throw new IggyConfigurationException(
                        "A row for table "
                                + table
                                + " names topic '"
                                + topic
                                + "' in its 'topic' metadata column, which the table does not"
                                + " allow: it allows "
                                + described
                                + ". Add the topic to the table's options or fix the row.");
            }
            return new IggySinkTarget(stream, id);
        }
    }
}
