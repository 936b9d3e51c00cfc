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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamSummary;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Descriptions of the streams of which one split reader watches two or more topics. One description
 * of a stream tells each of its topics' message count, size and partition count: a {@link
 * TopicWatch} whose topic shows the same {@link TopicSummary} as at its last description skips
 * describing it, so an idle reader over many topics of a stream sends one request per poll interval
 * instead of one per topic. A reader watching one topic of a stream describes that topic directly,
 * as a description of the stream would cost as much.
 *
 * <p>Fetcher thread only; the descriptions are answered through {@code events} as {@link
 * FetchEvent.StreamAnswer}s.
 */
final class StreamSummaries {

    /** A topic that does not exist, as a stream's or a topic's description tells it. */
    static final TopicSummary ABSENT =
            new TopicSummary(-1, "", BigInteger.ZERO, 0, BigInteger.ZERO, "");

    /**
     * A topic's summary in its stream's description, sent at {@code askedAt}; {@code summary} is
     * null while that description is asked for, or when it failed (the topic is then described
     * directly, whose failure says what is wrong).
     */
    record Look(@Nullable TopicSummary summary, long askedAt, boolean asking) {}

    private final IggyReadRequests requests;
    private final Consumer<FetchEvent> events;
    private final Map<IggyId, Integer> watchedTopics = new HashMap<>();
    private final Map<IggyId, Summary> summaries = new HashMap<>();

    StreamSummaries(IggyReadRequests requests, Consumer<FetchEvent> events) {
        this.requests = requests;
        this.events = events;
    }

    /** A topic watch was created for this topic. */
    void watch(TopicPath topic) {
        watchedTopics.merge(topic.stream(), 1, Integer::sum);
    }

    /** Whether the reader watches two or more topics of this stream. */
    boolean shared(IggyId stream) {
        return watchedTopics.getOrDefault(stream, 0) >= 2;
    }

    /**
     * The topic in a description of its stream sent at or after {@code notBefore}; when there is
     * none, asks for one (unless one is asked for already).
     */
    Look look(TopicPath topic, long notBefore, long now) {
        Summary summary = summaries.computeIfAbsent(topic.stream(), s -> new Summary());
        if (summary.asking) {
            return new Look(null, summary.askedAt, true);
        }
        if (summary.answer == null || summary.askedAt - notBefore < 0) {
            summary.asking = true;
            summary.askedAt = now;
            requests.describeStream(topic.stream())
                    .whenComplete(
                            (details, error) ->
                                    events.accept(
                                            new FetchEvent.StreamAnswer(
                                                    topic.stream(), details, error)));
            return new Look(null, now, true);
        }
        return new Look(summary.answer.summaryOf(topic.topic()), summary.askedAt, false);
    }

    /** A stream's description answered: the topic watches look at it at their next due time. */
    void answered(FetchEvent.StreamAnswer answer) {
        Summary summary = summaries.get(answer.stream());
        summary.asking = false;
        summary.answer = answer.error() == null ? new Answer(answer.details()) : new Answer(null);
    }

    private static final class Summary {
        boolean asking;
        long askedAt;
        @Nullable Answer answer;
    }

    /** A stream's description: empty when the stream does not exist, null when it failed. */
    private record Answer(@Nullable Optional<StreamSummary> details) {
        @Nullable
        TopicSummary summaryOf(IggyId topic) {
            if (details == null) {
                return null;
            }
            if (details.isEmpty()) {
                return ABSENT;
            }
            for (TopicSummary t : details.get().topics()) {
                if (topic.isNumeric()
                        ? t.id() == topic.numericId()
                        : t.name().equals(topic.name())) {
                    return t;
                }
            }
            return ABSENT;
        }
    }
}
