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
package org.apache.flink.connector.iggy.testutils;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.consumergroup.Consumer;
import org.apache.iggy.consumergroup.ConsumerGroup;
import org.apache.iggy.consumergroup.ConsumerGroupDetails;
import org.apache.iggy.consumergroup.ConsumerGroupMember;
import org.apache.iggy.exception.IggyConflictException;
import org.apache.iggy.exception.IggyResourceNotFoundException;
import org.apache.iggy.exception.IggyServerException;
import org.apache.iggy.identifier.ConsumerId;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.PolledMessages;
import org.apache.iggy.message.PollingStrategy;
import org.apache.iggy.system.ConsumerGroupInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.apache.flink.connector.iggy.testutils.Conditions.waitUntil;
import static org.apache.flink.connector.iggy.testutils.IggyErrors.assertServerError;
import static org.apache.flink.connector.iggy.testutils.TestMessages.offsets;
import static org.apache.flink.connector.iggy.testutils.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consumer groups (docs/development/iggy-protocol.md §8.3). Each member is its own blocking client:
 * membership belongs to a TCP connection, and sequential use of a blocking client keeps one
 * connection.
 */
class ConsumerGroupsTest {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private final List<IggyTcpClient> members = new ArrayList<>();
    private String stream;
    private StreamId streamId;
    private final TopicId topicId = TopicId.of("t");
    private final ConsumerId group = ConsumerId.of("g");

    @BeforeEach
    void setUp() {
        stream = IGGY.uniqueName("groups");
        streamId = StreamId.of(stream);
        IGGY.createStream(stream);
    }

    @AfterEach
    void closeMembers() {
        Clients.closeAll(members);
    }

    @Test
    void createdGroupSpansTheTopicsPartitionsAndHasNoMembers() {
        IGGY.createTopic(stream, "t", 3);

        ConsumerGroupDetails created =
                IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");

        assertThat(created.name()).isEqualTo("g");
        assertThat(created.partitionsCount()).isEqualTo(3L);
        assertThat(created.membersCount()).isZero();
        assertThat(IGGY.client().consumerGroups().getConsumerGroups(streamId, topicId))
                .extracting(ConsumerGroup::name)
                .containsExactly("g");
        assertThat(details().id()).isEqualTo(created.id());
    }

    @Test
    void groupErrors() {
        IGGY.createTopic(stream, "t", 1);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();

        assertServerError(
                () -> IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g"),
                IggyConflictException.class,
                5004);
        assertServerError(
                () ->
                        a.consumerGroups()
                                .joinConsumerGroup(streamId, topicId, ConsumerId.of("missing")),
                IggyResourceNotFoundException.class,
                5000);
        assertServerError(
                () -> a.consumerGroups().leaveConsumerGroup(streamId, topicId, group),
                IggyResourceNotFoundException.class,
                5006);
        assertServerError(
                () ->
                        a.consumerGroups()
                                .deleteConsumerGroup(streamId, topicId, ConsumerId.of("missing")),
                IggyResourceNotFoundException.class,
                5000);
        assertServerError(
                () ->
                        a.consumerGroups()
                                .joinConsumerGroup(
                                        StreamId.of(IGGY.uniqueName("x")), topicId, group),
                IggyResourceNotFoundException.class,
                1009);
        assertThat(
                        IGGY.client()
                                .consumerGroups()
                                .getConsumerGroup(streamId, topicId, ConsumerId.of("missing")))
                .isEmpty();
    }

    @Test
    void joinsRebalanceCooperatively() {
        IGGY.createTopic(stream, "t", 3);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");

        join(member());
        assertThat(assignments()).containsExactly(List.of(0L, 1L, 2L));

        join(member());
        assertThat(assignments()).containsExactly(List.of(0L, 1L), List.of(2L));

        join(member());
        assertThat(assignments()).containsExactly(List.of(0L), List.of(2L), List.of(1L));
    }

    @Test
    void joiningTwiceIsIdempotent() {
        IGGY.createTopic(stream, "t", 2);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();

        join(a);
        join(a);

        assertThat(details().membersCount()).isEqualTo(1L);
    }

    @Test
    void aSecondMemberOfASinglePartitionGroupGetsNothing() {
        IGGY.createTopic(stream, "t", 1);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");

        join(member());
        IggyTcpClient b = member();
        join(b);

        assertThat(assignments()).containsExactly(List.of(0L), List.of());
        PolledMessages polled = groupPoll(b, Optional.empty(), PollingStrategy.next(), true);
        assertThat(polled.messages()).isEmpty();
        assertThat(polled.partitionId()).isZero();
    }

    @Test
    void leaveRebalancesFully() {
        IGGY.createTopic(stream, "t", 3);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        IggyTcpClient b = member();
        IggyTcpClient c = member();
        join(a);
        join(b);
        join(c);

        c.consumerGroups().leaveConsumerGroup(streamId, topicId, group);

        assertThat(assignments()).containsExactly(List.of(0L, 2L), List.of(1L));
    }

    @Test
    void disconnectLeavesTheGroup() throws InterruptedException {
        IGGY.createTopic(stream, "t", 2);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        join(a);
        IggyTcpClient b = IGGY.newClient();
        join(b);
        assertThat(details().membersCount()).isEqualTo(2L);

        b.close();

        awaitDetails(d -> d.membersCount() == 1L);
        assertThat(assignments()).containsExactly(List.of(0L, 1L));
    }

    @Test
    void getMeListsJoinedGroups() {
        IGGY.createTopic(stream, "t", 1);
        ConsumerGroupDetails created =
                IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        join(a);

        List<ConsumerGroupInfo> groups = a.system().getMe().consumerGroups();

        assertThat(groups)
                .extracting(ConsumerGroupInfo::consumerGroupId)
                .containsExactly(created.id());
        assertThat(IGGY.client().system().getMe().consumerGroups()).isEmpty();
    }

    @Test
    void groupPollsRoundRobinOverOwnedPartitionsAndCommitPerGroup() {
        IGGY.createTopic(stream, "t", 2);
        IGGY.send(stream, "t", 0, List.of("p0-a".getBytes(), "p0-b".getBytes()));
        IGGY.send(stream, "t", 1, List.of("p1-a".getBytes()));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        join(a);

        PolledMessages first = groupPoll(a, Optional.empty(), PollingStrategy.next(), true);
        PolledMessages second = groupPoll(a, Optional.empty(), PollingStrategy.next(), true);
        PolledMessages third = groupPoll(a, Optional.empty(), PollingStrategy.next(), true);

        assertThat(first.partitionId()).isEqualTo(0L);
        assertThat(texts(first.messages())).containsExactly("p0-a", "p0-b");
        assertThat(second.partitionId()).isEqualTo(1L);
        assertThat(texts(second.messages())).containsExactly("p1-a");
        assertThat(third.partitionId()).isEqualTo(0L);
        assertThat(third.messages()).isEmpty();
        // Offsets belong to the group; reading them needs no membership.
        assertThat(
                        IGGY.client()
                                .consumerOffsets()
                                .getConsumerOffset(
                                        streamId, topicId, Optional.of(0L), Consumer.group(group))
                                .orElseThrow()
                                .storedOffset())
                .isEqualTo(BigInteger.ONE);
    }

    @Test
    void pollingOrStoringWithAGroupNotJoinedFails() {
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of(new byte[1]));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient outsider = member();

        assertServerError(
                () -> groupPoll(outsider, Optional.of(0L), PollingStrategy.first(), false),
                IggyResourceNotFoundException.class,
                5006);
        assertServerError(
                () ->
                        outsider.consumerOffsets()
                                .storeConsumerOffset(
                                        streamId,
                                        topicId,
                                        Optional.of(0L),
                                        Consumer.group(group),
                                        BigInteger.ZERO),
                IggyResourceNotFoundException.class,
                5006);
        assertServerError(
                () ->
                        groupPollOf(
                                outsider,
                                ConsumerId.of("missing"),
                                Optional.of(0L),
                                PollingStrategy.first()),
                IggyResourceNotFoundException.class,
                5000);
    }

    @Test
    void storingAGroupOffsetForAPartitionNotOwnedFails() {
        IGGY.createTopic(stream, "t", 2);
        IGGY.send(stream, "t", 0, List.of(new byte[1]));
        IGGY.send(stream, "t", 1, List.of(new byte[1]));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        IggyTcpClient b = member();
        join(a);
        join(b);

        assertThat(assignments()).containsExactly(List.of(0L), List.of(1L));
        assertServerError(
                () ->
                        a.consumerOffsets()
                                .storeConsumerOffset(
                                        streamId,
                                        topicId,
                                        Optional.of(1L),
                                        Consumer.group(group),
                                        BigInteger.ZERO),
                IggyServerException.class,
                3022);
        PolledMessages notOwned = groupPoll(a, Optional.of(1L), PollingStrategy.first(), false);
        assertThat(notOwned.messages()).isEmpty();
        assertThat(notOwned.partitionId()).isZero();
        assertThat(notOwned.currentOffset()).isEqualTo(BigInteger.ZERO);
    }

    @Test
    void aPolledButUncommittedPartitionMovesOnlyAfterTheCommit() {
        IGGY.createTopic(stream, "t", 2);
        IGGY.send(stream, "t", 1, List.of("one".getBytes(), "two".getBytes()));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        join(a);
        PolledMessages polled = groupPoll(a, Optional.of(1L), PollingStrategy.first(), false);
        assertThat(offsets(polled.messages())).containsExactly(0L, 1L);

        IggyTcpClient b = member();
        join(b);

        // Partition 1 is pending revocation: A still owns it, B cannot poll it yet.
        assertThat(assignments()).containsExactly(List.of(0L, 1L), List.of());
        assertThat(groupPoll(b, Optional.of(1L), PollingStrategy.first(), false).messages())
                .isEmpty();

        a.consumerOffsets()
                .storeConsumerOffset(
                        streamId, topicId, Optional.of(1L), Consumer.group(group), BigInteger.ONE);

        assertThat(assignments()).containsExactly(List.of(0L), List.of(1L));
        assertThat(texts(groupPoll(b, Optional.of(1L), PollingStrategy.first(), false).messages()))
                .containsExactly("one", "two");
    }

    @Test
    void partitionChangesRebalanceGroupsFully() {
        IGGY.createTopic(stream, "t", 1);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        join(member());
        join(member());

        IGGY.client().partitions().createPartitions(streamId, topicId, 3L);
        assertThat(assignments()).containsExactly(List.of(0L, 2L), List.of(1L, 3L));
        assertThat(details().partitionsCount()).isEqualTo(4L);

        IGGY.client().partitions().deletePartitions(streamId, topicId, 3L);
        assertThat(assignments()).containsExactly(List.of(0L), List.of());
    }

    @Test
    void deleteGroupRemovesItsOffsets() {
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of(new byte[1]));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        IggyTcpClient a = member();
        join(a);
        groupPoll(a, Optional.empty(), PollingStrategy.next(), true);

        IGGY.client().consumerGroups().deleteConsumerGroup(streamId, topicId, group);
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");

        assertThat(
                        IGGY.client()
                                .consumerOffsets()
                                .getConsumerOffset(
                                        streamId, topicId, Optional.of(0L), Consumer.group(group)))
                .isEmpty();
        assertThat(details().membersCount()).isZero();
        assertThat(a.system().getMe().consumerGroups()).isEmpty();
    }

    @Test
    void anAsyncClientWithOneConnectionKeepsItsMembershipAcrossCalls() throws Exception {
        IGGY.createTopic(stream, "t", 1);
        IGGY.send(stream, "t", 0, List.of("x".getBytes()));
        IGGY.client().consumerGroups().createConsumerGroup(streamId, topicId, "g");
        AsyncIggyTcpClient async =
                AsyncIggyTcpClient.builder()
                        .host(IGGY.host())
                        .port(IGGY.port())
                        .credentials(IGGY.username(), IGGY.password())
                        .connectionPoolSize(1)
                        .buildAndLogin()
                        .get(30, TimeUnit.SECONDS);
        try {
            async.consumerGroups()
                    .joinConsumerGroup(streamId, topicId, group)
                    .get(30, TimeUnit.SECONDS);

            PolledMessages polled =
                    async.messages()
                            .pollMessages(
                                    streamId,
                                    topicId,
                                    Optional.empty(),
                                    Consumer.group(group),
                                    PollingStrategy.next(),
                                    10L,
                                    true)
                            .get(30, TimeUnit.SECONDS);

            assertThat(texts(polled.messages())).containsExactly("x");
            assertThat(details().membersCount()).isEqualTo(1L);
        } finally {
            async.close().get(30, TimeUnit.SECONDS);
        }
        awaitDetails(d -> d.membersCount() == 0L);
    }

    private IggyTcpClient member() {
        IggyTcpClient client = IGGY.newClient();
        members.add(client);
        return client;
    }

    private void join(IggyTcpClient client) {
        client.consumerGroups().joinConsumerGroup(streamId, topicId, group);
    }

    private ConsumerGroupDetails details() {
        return IGGY.client()
                .consumerGroups()
                .getConsumerGroup(streamId, topicId, group)
                .orElseThrow();
    }

    /** Each member's partitions, members in id order. */
    private List<List<Long>> assignments() {
        List<ConsumerGroupMember> sorted = new ArrayList<>(details().members());
        sorted.sort((x, y) -> Long.compare(x.id(), y.id()));
        List<List<Long>> result = new ArrayList<>();
        for (ConsumerGroupMember member : sorted) {
            result.add(member.partitions());
        }
        return result;
    }

    private void awaitDetails(Predicate<ConsumerGroupDetails> condition)
            throws InterruptedException {
        waitUntil(
                "the consumer group reaches the expected state",
                Duration.ofSeconds(10),
                () -> condition.test(details()),
                () -> ", it is " + details());
    }

    private PolledMessages groupPoll(
            IggyTcpClient client,
            Optional<Long> partition,
            PollingStrategy strategy,
            boolean autoCommit) {
        return client.messages()
                .pollMessages(
                        streamId,
                        topicId,
                        partition,
                        Consumer.group(group),
                        strategy,
                        10L,
                        autoCommit);
    }

    private PolledMessages groupPollOf(
            IggyTcpClient client,
            ConsumerId groupId,
            Optional<Long> partition,
            PollingStrategy strategy) {
        return client.messages()
                .pollMessages(
                        streamId,
                        topicId,
                        partition,
                        Consumer.group(groupId),
                        strategy,
                        10L,
                        false);
    }
}
