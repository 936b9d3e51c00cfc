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
package org.apache.flink.connector.iggy.testutils.server;

/** Consumer groups (600–605). Membership belongs to the connection that joined. */
final class ConsumerGroupCommands {
    private final ServerState state;

    ConsumerGroupCommands(ServerState state) {
        this.state = state;
    }

    Reply create(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        String name = request.str8();
        return state.write(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    Permissioner.manageTopic(user, topic);
                    if (topic.findGroup(EntityId.ofName(name)) != null) {
                        throw CommandException.of(
                                ErrorCodes.CONSUMER_GROUP_NAME_ALREADY_EXISTS,
                                "consumer group exists: " + name);
                    }
                    ConsumerGroupState group =
                            new ConsumerGroupState(
                                    topic.groupIds.allocate(),
                                    name,
                                    topic.streamId(),
                                    topic.id(),
                                    topic.partitions.size(),
                                    state.rebalancingTimeoutNanos());
                    topic.groups.put(group.id(), group);
                    ResponseWriter out = new ResponseWriter();
                    writeGroupHeader(out, group);
                    return Reply.of(out);
                });
    }

    Reply get(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        EntityId groupId = request.identifier();
        return state.read(
                () -> {
                    TopicState topic = state.findTopic(streamId, topicId);
                    ConsumerGroupState group = topic == null ? null : topic.findGroup(groupId);
                    if (group == null) {
                        return Reply.EMPTY;
                    }
                    Permissioner.readTopic(user, topic);
                    group.dropDisconnectedMembers();
                    ResponseWriter out = new ResponseWriter();
                    writeGroupHeader(out, group);
                    for (ConsumerGroupState.MemberView member : group.members()) {
                        out.u32(member.memberId()).u32(member.partitions().size());
                        for (int partition : member.partitions()) {
                            out.u32(partition);
                        }
                    }
                    return Reply.of(out);
                });
    }

    Reply list(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        return state.read(
                () -> {
                    TopicState topic = state.findTopic(streamId, topicId);
                    if (topic == null) {
                        return Reply.EMPTY;
                    }
                    Permissioner.readTopic(user, topic);
                    ResponseWriter out = new ResponseWriter();
                    for (ConsumerGroupState group : topic.groups.values()) {
                        writeGroupHeader(out, group);
                    }
                    return Reply.of(out);
                });
    }

    Reply delete(UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        EntityId groupId = request.identifier();
        return state.write(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    ConsumerGroupState group = topic.group(groupId);
                    Permissioner.manageTopic(user, topic);
                    group.markDeleted();
                    topic.groups.remove(group.id());
                    topic.groupIds.free(group.id());
                    for (PartitionLog partition : topic.partitions) {
                        partition.groupOffsets().remove(group.id());
                        partition.groupLastPolled().remove(group.id());
                    }
                    return Reply.EMPTY;
                });
    }

    Reply join(Session session, UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        EntityId groupId = request.identifier();
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    ConsumerGroupState group = topic.group(groupId);
                    Permissioner.readTopic(user, topic);
                    group.join(session, topic);
                    session.joined(group);
                    return Reply.EMPTY;
                });
    }

    Reply leave(Session session, UserAccount user, RequestReader request) {
        EntityId streamId = request.identifier();
        EntityId topicId = request.identifier();
        EntityId groupId = request.identifier();
        return state.read(
                () -> {
                    TopicState topic = state.topic(streamId, topicId);
                    ConsumerGroupState group = topic.group(groupId);
                    Permissioner.readTopic(user, topic);
                    if (!group.leave(session)) {
                        throw CommandException.of(
                                ErrorCodes.CONSUMER_GROUP_MEMBER_NOT_FOUND,
                                "not a member of consumer group " + group.name());
                    }
                    session.left(group);
                    return Reply.EMPTY;
                });
    }

    private static void writeGroupHeader(ResponseWriter out, ConsumerGroupState group) {
        out.u32(group.id())
                .u32(group.partitionsCount())
                .u32(group.membersCount())
                .str8(group.name());
    }
}
