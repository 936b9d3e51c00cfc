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
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

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
        AllowedTopics allowed;
        if (options.getOptional(IggyConnectorOptions.TOPIC_PATTERN).isPresent()) {
            allowed =
                    new AllowedTopics.Matching(
                            Pattern.compile(options.get(IggyConnectorOptions.TOPIC_PATTERN)));
        } else if (options.getOptional(IggyConnectorOptions.TOPIC).isPresent()) {
            allowed =
                    new AllowedTopics.Listed(
                            options.get(IggyConnectorOptions.TOPIC),
                            new LinkedHashSet<>(IggyConnectorOptionsUtil.topics(options)));
        } else {
            allowed = AllowedTopics.Any.INSTANCE;
        }
        return new ByTopicColumn(
                IggyId.of(options.get(IggyConnectorOptions.STREAM)), position, allowed, table);
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

    /** See {@link #byTopicColumn}. */
    record ByTopicColumn(IggyId stream, int position, AllowedTopics allowed, String table)
            implements IggyRowRouting {

        @Override
        public IggySinkTarget targetOf(RowData row) {
            if (row.isNullAt(position)) {
                throw new IggyConfigurationException(
                        "A row for table "
                                + table
                                + " has a NULL 'topic' metadata column, but every row must name"
                                + " its topic ("
                                + allowed.describe()
                                + "). Filter such rows out or give them a topic.");
            }
            String topic = row.getString(position).toString();
            IggyId id = null;
            if (allowed.allows(topic)) {
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
                                + allowed.describe()
                                + ". Add the topic to the table's options or fix the row.");
            }
            return new IggySinkTarget(stream, id);
        }
    }

    /** Which topics a table's rows may name. */
    sealed interface AllowedTopics extends Serializable
            permits AllowedTopics.Listed, AllowedTopics.Matching, AllowedTopics.Any {

        boolean allows(String topic);

        /** How the table's options say it, for messages. */
        String describe();

        /** 'topic' = 'a;b': the listed topics. */
        record Listed(String option, Set<String> topics) implements AllowedTopics {
            @Override
            public boolean allows(String topic) {
                return topics.contains(topic);
            }

            @Override
            public String describe() {
                return "'topic' = '" + option + "'";
            }
        }

        /** 'topic-pattern': the topics whose whole name matches. */
        record Matching(Pattern pattern) implements AllowedTopics {
            @Override
            public boolean allows(String topic) {
                return pattern.matcher(topic).matches();
            }

            @Override
            public String describe() {
                return "'topic-pattern' = '" + pattern.pattern() + "'";
            }
        }

        /** Neither option: any topic of the stream. */
        enum Any implements AllowedTopics {
            INSTANCE;

            @Override
            public boolean allows(String topic) {
                return true;
            }

            @Override
            public String describe() {
                return "any topic of the stream";
            }
        }
    }
}
