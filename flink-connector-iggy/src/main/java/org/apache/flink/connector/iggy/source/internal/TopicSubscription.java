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
package org.apache.flink.connector.iggy.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which topics a source reads: a list of topics of one stream, or those matching a pattern in the
 * streams matching another, found again at each discovery.
 */
@Internal
public sealed interface TopicSubscription extends Serializable {

    /** Lists the server's streams and topics. */
    interface Lister {
        List<String> streams();

        /** The names of the topics of a stream; empty when the stream does not exist. */
        List<String> topics(String stream);
    }

    List<TopicPath> topics(Lister lister);

    /** Whether this subscription reads the topic. */
    boolean contains(TopicPath topic);

    /** For messages: what the subscription reads. */
    String describe();

    /** Listed topics of one stream; a missing topic is an error. */
    record TopicList(IggyId stream, List<IggyId> topicIds) implements TopicSubscription {
        public TopicList {
            topicIds = List.copyOf(topicIds);
        }

        @Override
        public List<TopicPath> topics(Lister lister) {
            return topicIds.stream().map(topic -> new TopicPath(stream, topic)).toList();
        }

        @Override
        public boolean contains(TopicPath topic) {
            return topic.stream().equals(stream) && topicIds.contains(topic.topic());
        }

        @Override
        public String describe() {
            return topicIds.size() == 1
                    ? "topic " + topicIds.get(0) + " of stream " + stream
                    : "topics " + topicIds + " of stream " + stream;
        }
    }

    /** Topics matching {@code topicRegex} in streams matching {@code streamRegex} (or quoted). */
    record TopicSearch(String streamRegex, String topicRegex) implements TopicSubscription {

        @Override
        public List<TopicPath> topics(Lister lister) {
            Pattern streams = Pattern.compile(streamRegex);
            Pattern topics = Pattern.compile(topicRegex);
            List<TopicPath> paths = new ArrayList<>();
            for (String stream : lister.streams()) {
                if (streams.matcher(stream).matches()) {
                    for (String topic : lister.topics(stream)) {
                        if (topics.matcher(topic).matches()) {
                            paths.add(new TopicPath(IggyId.of(stream), IggyId.of(topic)));
                        }
                    }
                }
            }
            return paths;
        }

        @Override
        public boolean contains(TopicPath path) {
            return !path.stream().isNumeric()
                    && !path.topic().isNumeric()
                    && Pattern.compile(streamRegex).matcher(path.stream().name()).matches()
                    && Pattern.compile(topicRegex).matcher(path.topic().name()).matches();
        }

        @Override
        public String describe() {
            return "topics matching /" + topicRegex + "/ in streams matching /" + streamRegex + "/";
        }
    }
}
