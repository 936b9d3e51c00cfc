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
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.connector.iggy.common.client.TopicDescription.StreamListing;
import org.apache.flink.connector.iggy.common.client.TopicDescription.TopicSummary;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import javax.annotation.Nullable;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The topic watches of one split reader. A watch is active while its topic may hold something new
 * (data, new partitions, a resume, a missing partition) and describes it on its own {@link
 * DescribeSchedule}. Once a description showed nothing new, the watch goes quiet, and the quiet
 * topics are checked together, one request a round: the list of the server's streams when the
 * topics are in two or more streams, else their one stream's description. A topic that looks
 * changed becomes active; when two or more quiet topics of one stream changed in the list, that
 * stream is described first, and only the topics it shows changed become active.
 *
 * <p>The list shows a stream's totals, not a topic's: it confirms a quiet topic only when the
 * stream's entry is the same as in a list answered before the topic's last look.
 *
 * <p>Topics go quiet only while the reader watches two or more. A list or stream description the
 * user may not ask for is not asked for again (the topics are then described per stream or
 * directly); after any other failure of a shared request, its topics are described directly.
 *
 * <p>Fetcher thread only; answers come through {@code events}.
 */
final class WatchedTopics {

    /** A topic that does not exist, as a stream's or a topic's description tells it. */
    static final TopicSummary ABSENT =
            new TopicSummary(-1, "", BigInteger.ZERO, 0, BigInteger.ZERO, "");

    /** A stream that the list does not hold. */
    private static final StreamListing NO_STREAM =
            new StreamListing(-1, "", BigInteger.ZERO, 0, BigInteger.ZERO, "");

    /** Descriptions in flight at most: SDK 0.8.0's pool fails requests beyond the 1,000 queued. */
    static final int MAX_DESCRIPTIONS_IN_FLIGHT = 64;

    private final IggyReadRequests requests;
    private final Consumer<FetchEvent> events;
    private final BiFunction<TopicPath, WatchedTopics, TopicWatch> newWatch;
    private final Map<TopicPath, TopicWatch> watches = new HashMap<>();
    private final Map<IggyId, Integer> topicsPerStream = new HashMap<>();

    /** Watches described on their own schedules; every other watch is quiet. */
    private final Set<TopicWatch> active = new LinkedHashSet<>();

    private final Map<IggyId, Set<TopicWatch>> quiet = new HashMap<>();

    /** Each watched stream as the last list showed it, and since when it shows so. */
    private final Map<IggyId, Listed> listed = new HashMap<>();

    private final Map<IggyId, Asked> describing = new HashMap<>();

    private final Set<IggyId> refusedStreams = new HashSet<>();
    private boolean listRefused;

    private int descriptionsInFlight;

    /** Requests of the round in flight not answered yet. */
    private int roundAnswersDue;

    private long roundAskedAt;

    /** When the next round is due, while a topic is quiet. */
    private long roundAt;

    private record Listed(StreamListing listing, long since) {}

    /** A stream description sent at {@code at}, as part of a round or not. */
    private record Asked(long at, boolean round) {}

    WatchedTopics(
            IggyReadRequests requests,
            Consumer<FetchEvent> events,
            BiFunction<TopicPath, WatchedTopics, TopicWatch> newWatch) {
        this.requests = requests;
        this.events = events;
        this.newWatch = newWatch;
    }

    /** The watch of a topic, made with its first split. */
    TopicWatch of(TopicPath topic) {
        TopicWatch watch = watches.get(topic);
        if (watch == null) {
            watch = newWatch.apply(topic, this);
            watches.put(topic, watch);
            topicsPerStream.merge(topic.stream(), 1, Integer::sum);
            active.add(watch);
        }
        return watch;
    }

    /**
     * Describes the active topics that are due, and sends the round's request when it is due;
     * returns how long the fetch may wait, or {@link Long#MAX_VALUE} for as long as it likes.
     */
    long describeDue(long now) {
        long wait = Long.MAX_VALUE;
        for (TopicWatch watch : active) {
            if (descriptionsInFlight >= MAX_DESCRIPTIONS_IN_FLIGHT) {
                break; // the next answer ends the wait
            }
            boolean wasDescribing = watch.describing();
            wait = Math.min(wait, watch.describeIfDue(now));
            if (!wasDescribing && watch.describing()) {
                descriptionsInFlight++;
            }
        }
        return Math.min(wait, roundIfDue(now));
    }

    void described(FetchEvent.DescribeAnswer answer) throws IOException {
        descriptionsInFlight--;
        of(answer.topic()).answered(answer);
    }

    /** Something may be new in the watch's topic: it is described on its own schedule. */
    void activate(TopicWatch watch) {
        if (active.add(watch)) {
            IggyId stream = watch.topic().stream();
            Set<TopicWatch> topics = quiet.get(stream);
            topics.remove(watch);
            if (topics.isEmpty()) {
                quiet.remove(stream);
            }
        }
    }

    /** The watch's description showed nothing to look at again: it goes quiet where it can. */
    void quieted(TopicWatch watch, long now) {
        IggyId stream = watch.topic().stream();
        if (!active.contains(watch) || !canBeQuiet(stream)) {
            return;
        }
        active.remove(watch);
        long lookAt = watch.seenAt() + DescribeSchedule.jittered(watch.delayNanos(now));
        if (quiet.isEmpty()) {
            roundAt = lookAt;
        } else if (roundAnswersDue == 0) {
            roundAt = Math.min(roundAt, lookAt);
        }
        quiet.computeIfAbsent(stream, s -> new HashSet<>()).add(watch);
    }

    private boolean canBeQuiet(IggyId stream) {
        return watches.size() >= 2
                && (listUsable()
                        || (topicsPerStream.get(stream) >= 2 && !refusedStreams.contains(stream)));
    }

    private boolean listUsable() {
        return topicsPerStream.size() >= 2 && !listRefused;
    }

    private long roundIfDue(long now) {
        if (quiet.isEmpty() || roundAnswersDue > 0) {
            return Long.MAX_VALUE;
        }
        long untilDue = roundAt - now;
        if (untilDue > 0) {
            return untilDue;
        }
        roundAskedAt = now;
        if (listUsable()) {
            roundAnswersDue = 1;
            requests.listStreams()
                    .whenComplete(
                            (streams, error) ->
                                    events.accept(new FetchEvent.ListAnswer(streams, error)));
        } else {
            for (IggyId stream : quiet.keySet()) {
                Asked inFlight = describing.get(stream);
                if (inFlight == null) {
                    describe(stream, now, true);
                } else {
                    describing.put(stream, new Asked(inFlight.at, true));
                }
                roundAnswersDue++;
            }
        }
        return Long.MAX_VALUE;
    }

    private void describe(IggyId stream, long now, boolean round) {
        descriptionsInFlight++;
        describing.put(stream, new Asked(now, round));
        requests.describeStream(stream)
                .whenComplete(
                        (details, error) ->
                                events.accept(new FetchEvent.StreamAnswer(stream, details, error)));
    }

    /** Confirms the quiet topics of each stream whose entry did not change; looks at the others. */
    void streamsListed(FetchEvent.ListAnswer answer) {
        long now = System.nanoTime();
        roundAnswersDue--;
        if (answer.error() != null) {
            listRefused = IggyErrorCode.UNAUTHORIZED.isCauseOf(answer.error());
            for (IggyId stream : new ArrayList<>(quiet.keySet())) {
                activateAll(stream, now);
            }
            return;
        }
        ByIggyId<StreamListing> streams =
                new ByIggyId<>(answer.streams(), StreamListing::name, StreamListing::id);
        for (IggyId stream : topicsPerStream.keySet()) {
            StreamListing listing = streams.find(stream, NO_STREAM);
            Listed before = listed.get(stream);
            boolean changed = before == null || !before.listing.equals(listing);
            if (changed) {
                listed.put(stream, new Listed(listing, now));
            }
            Set<TopicWatch> topics = quiet.get(stream);
            if (topics != null) {
                lookAt(stream, topics, changed ? null : before.since, now);
            }
        }
        scheduleRound(now);
    }

    /**
     * Confirms the quiet topics of a stream that was listed unchanged since before their last look;
     * describes the stream, or the one topic, to look at the others.
     */
    private void lookAt(
            IggyId stream, Set<TopicWatch> topics, @Nullable Long unchangedSince, long now) {
        List<TopicWatch> toLook = new ArrayList<>();
        for (TopicWatch watch : topics) {
            if (watch.seenAt() - roundAskedAt >= 0) {
                continue; // looked at after the list was asked for
            }
            // Sent at or after the list that began showing this entry was handled, so answered
            // from a later state: both times are this thread's, and much runs between them.
            if (unchangedSince != null && unchangedSince - watch.seenAt() <= 0) {
                watch.unchangedAt(roundAskedAt);
            } else {
                toLook.add(watch);
            }
        }
        if (toLook.size() >= 2 && !refusedStreams.contains(stream)) {
            // Otherwise the next list finds these topics to look at again.
            if (!describing.containsKey(stream)
                    && descriptionsInFlight < MAX_DESCRIPTIONS_IN_FLIGHT) {
                describe(stream, now, false);
            }
        } else {
            for (TopicWatch watch : toLook) {
                watch.describeNow(now);
            }
        }
    }

    /**
     * Its quiet topics shown as last seen stay quiet, the others (all, after a failure) become
     * active. A missing stream shows every topic missing.
     */
    void streamDescribed(FetchEvent.StreamAnswer answer) {
        long now = System.nanoTime();
        IggyId stream = answer.stream();
        Asked asked = describing.remove(stream);
        descriptionsInFlight--;
        if (asked.round) {
            roundAnswersDue--;
        }
        Throwable error = answer.error();
        if (error != null && !TopologyGuard.topicMissing(error)) {
            if (IggyErrorCode.UNAUTHORIZED.isCauseOf(error)) {
                refusedStreams.add(stream);
            }
            activateAll(stream, now);
        } else if (quiet.containsKey(stream)) {
            List<TopicSummary> shown =
                    error != null || answer.details().isEmpty()
                            ? List.of()
                            : answer.details().get().topics();
            ByIggyId<TopicSummary> found =
                    new ByIggyId<>(shown, TopicSummary::name, TopicSummary::id);
            List<TopicWatch> changed = new ArrayList<>();
            for (TopicWatch watch : quiet.get(stream)) {
                if (watch.seenAt() - asked.at >= 0) {
                    continue; // described after this was asked for
                }
                if (!watch.stillShows(found.find(watch.topic().topic(), ABSENT), asked.at)) {
                    changed.add(watch);
                }
            }
            for (TopicWatch watch : changed) {
                watch.describeNow(now);
            }
        }
        if (asked.round && roundAnswersDue == 0) {
            scheduleRound(now);
        }
    }

    private void activateAll(IggyId stream, long now) {
        Set<TopicWatch> topics = quiet.get(stream);
        if (topics != null) {
            for (TopicWatch watch : new ArrayList<>(topics)) {
                watch.describeNow(now);
            }
        }
    }

    /** The next round after the shortest delay any quiet topic asks for, from this one's. */
    private void scheduleRound(long now) {
        long delay = Long.MAX_VALUE;
        for (Set<TopicWatch> topics : quiet.values()) {
            for (TopicWatch watch : topics) {
                delay = Math.min(delay, watch.delayNanos(now));
            }
        }
        if (delay != Long.MAX_VALUE) {
            roundAt = roundAskedAt + DescribeSchedule.jittered(delay);
        }
    }

    /** The items of one answer, found by name, or by numeric id (indexed at the first such). */
    private static final class ByIggyId<T> {
        private final List<T> items;
        private final ToLongFunction<T> id;
        private final Map<String, T> byName = new HashMap<>();
        @Nullable private Map<Long, T> byId;

        ByIggyId(List<T> items, Function<T, String> name, ToLongFunction<T> id) {
            this.items = items;
            this.id = id;
            for (T item : items) {
                byName.put(name.apply(item), item);
            }
        }

        T find(IggyId key, T absent) {
            if (!key.isNumeric()) {
                return byName.getOrDefault(key.name(), absent);
            }
            if (byId == null) {
                byId = new HashMap<>();
                for (T item : items) {
                    byId.put(id.applyAsLong(item), item);
                }
            }
            return byId.getOrDefault(key.numericId(), absent);
        }
    }
}
