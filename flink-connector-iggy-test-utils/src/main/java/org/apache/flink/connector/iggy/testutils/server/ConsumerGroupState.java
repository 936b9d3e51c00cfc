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

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A consumer group of one topic: its members (one per joined connection) and which partitions each
 * member owns. The rules are those of the real server (docs/development/iggy-protocol.md §8.3):
 *
 * <ul>
 *   <li>a join runs a cooperative rebalance: idle members take unowned partitions, then surplus
 *       partitions of over-full members move to idle members, at once if the group has consumed
 *       everything it polled from them, otherwise once a commit catches up (or after a timeout);
 *   <li>a leave, a disconnect or a partition change runs a full round-robin rebalance.
 * </ul>
 *
 * <p>All methods synchronise on the group. The partition list and member slots are mutated only
 * here.
 */
final class ConsumerGroupState {
    private final int id;
    private final String name;
    private final int streamId;
    private final int topicId;

    /** How long a pending revocation may wait for the old owner's commit. */
    private final long rebalancingTimeoutNanos;

    private volatile boolean deleted;

    private final List<Integer> partitions = new ArrayList<>();

    /** Members in slab order; a null slot is free and is reused before the list grows. */
    private final List<Member> slots = new ArrayList<>();

    private final IdAllocator slotIds = new IdAllocator();
    private final List<Revocation> pending = new ArrayList<>();

    ConsumerGroupState(
            int id,
            String name,
            int streamId,
            int topicId,
            int partitionsCount,
            long rebalancingTimeoutNanos) {
        this.id = id;
        this.rebalancingTimeoutNanos = rebalancingTimeoutNanos;
        this.name = name;
        this.streamId = streamId;
        this.topicId = topicId;
        for (int i = 0; i < partitionsCount; i++) {
            partitions.add(i);
        }
    }

    int id() {
        return id;
    }

    String name() {
        return name;
    }

    int streamId() {
        return streamId;
    }

    int topicId() {
        return topicId;
    }

    boolean isDeleted() {
        return deleted;
    }

    void markDeleted() {
        deleted = true;
    }

    synchronized int partitionsCount() {
        return partitions.size();
    }

    /** One joined connection and the partitions it owns, in assignment order. */
    static final class Member {
        final int memberId;
        final Session session;
        final List<Integer> partitions = new ArrayList<>();
        long pollCounter;

        Member(int memberId, Session session) {
            this.memberId = memberId;
            this.session = session;
        }
    }

    /** A partition that moves from one member to another once the group caught up on it. */
    private record Revocation(int partition, Member from, Member to, long startedAtNanos) {}

    /** A snapshot of one member for GET_CONSUMER_GROUP. */
    record MemberView(int memberId, List<Integer> partitions) {}

    synchronized List<MemberView> members() {
        List<MemberView> result = new ArrayList<>();
        for (Member member : slots) {
            if (member != null) {
                result.add(new MemberView(member.memberId, List.copyOf(member.partitions)));
            }
        }
        return result;
    }

    synchronized int membersCount() {
        int count = 0;
        for (Member member : slots) {
            if (member != null) {
                count++;
            }
        }
        return count;
    }

    /** Adds the connection (once) and runs a cooperative rebalance. */
    synchronized void join(Session session, TopicState topic) {
        dropDisconnectedMembers();
        if (find(session) != null) {
            return;
        }
        int memberId = 0;
        for (Member member : slots) {
            if (member != null) {
                memberId = Math.max(memberId, member.memberId + 1);
            }
        }
        Member member = new Member(memberId, session);
        int slot = slotIds.allocate();
        if (slot == slots.size()) {
            slots.add(member);
        } else {
            slots.set(slot, member);
        }
        rebalanceCooperatively(topic);
    }

    /** Removes the connection and runs a full rebalance; false if it was not a member. */
    synchronized boolean leave(Session session) {
        Member member = find(session);
        if (member == null) {
            return false;
        }
        removeMember(member);
        rebalanceFully();
        return true;
    }

    /** The topic's partition count changed: the group now spans {@code 0..count-1}. */
    synchronized void partitionsChanged(int count) {
        partitions.clear();
        for (int i = 0; i < count; i++) {
            partitions.add(i);
        }
        rebalanceFully();
    }

    /**
     * Chooses the partition for a group poll. Returns -1 when the member may not poll anything (it
     * owns nothing, or an explicit partition that it neither owns nor is giving up).
     */
    synchronized long partitionForPoll(Session session, long requested, TopicState topic) {
        Member member = requireMember(session);
        completeRevocations(topic);
        if (requested >= 0) {
            return member.partitions.contains((int) requested) ? requested : -1;
        }
        List<Integer> candidates = partitionsNotBeingRevoked(member);
        if (candidates.isEmpty()) {
            return -1;
        }
        int index = (int) (member.pollCounter++ % candidates.size());
        return candidates.get(index);
    }

    /**
     * Chooses the partition for a group offset store: an explicit one must be owned (else 3022);
     * without one the current round-robin slot is used without advancing it.
     */
    synchronized long partitionForStore(Session session, long requested, TopicState topic) {
        Member member = requireMember(session);
        completeRevocations(topic);
        if (requested >= 0) {
            if (!member.partitions.contains((int) requested)) {
                throw CommandException.of(
                        ErrorCodes.NOT_RESOLVED_CONSUMER,
                        "partition " + requested + " is not owned by this member");
            }
            return requested;
        }
        List<Integer> candidates = partitionsNotBeingRevoked(member);
        if (candidates.isEmpty()) {
            throw CommandException.of(ErrorCodes.NOT_RESOLVED_CONSUMER, "member owns nothing");
        }
        return candidates.get((int) (member.pollCounter % candidates.size()));
    }

    /** The member's partitions that it is not giving up: the ones round-robin polls cycle over. */
    private List<Integer> partitionsNotBeingRevoked(Member member) {
        List<Integer> result = new ArrayList<>();
        for (Integer partition : member.partitions) {
            if (!isPendingRevocation(partition)) {
                result.add(partition);
            }
        }
        return result;
    }

    /** A commit may let a pending revocation complete. */
    synchronized void offsetCommitted(TopicState topic) {
        completeRevocations(topic);
    }

    /** Removes members whose connection is gone, then rebalances fully if any was removed. */
    synchronized void dropDisconnectedMembers() {
        boolean removed = false;
        for (Member member : new ArrayList<>(slots)) {
            if (member != null && member.session.isClosed()) {
                removeMember(member);
                removed = true;
            }
        }
        if (removed) {
            rebalanceFully();
        }
    }

    private Member requireMember(Session session) {
        Member member = find(session);
        if (member == null) {
            throw CommandException.of(
                    ErrorCodes.CONSUMER_GROUP_MEMBER_NOT_FOUND,
                    "this connection has not joined consumer group " + name);
        }
        return member;
    }

    private Member find(Session session) {
        for (Member member : slots) {
            if (member != null && member.session == session) {
                return member;
            }
        }
        return null;
    }

    private void removeMember(Member member) {
        int slot = slots.indexOf(member);
        slots.set(slot, null);
        slotIds.free(slot);
        pending.removeIf(r -> r.from() == member || r.to() == member);
    }

    private List<Member> activeMembers() {
        List<Member> result = new ArrayList<>();
        for (Member member : slots) {
            if (member != null) {
                result.add(member);
            }
        }
        return result;
    }

    /** Partition i goes to member i % count, members in slab order. */
    private void rebalanceFully() {
        pending.clear();
        List<Member> members = activeMembers();
        for (Member member : members) {
            member.partitions.clear();
            member.pollCounter = 0;
        }
        if (members.isEmpty()) {
            return;
        }
        for (int i = 0; i < partitions.size(); i++) {
            members.get(i % members.size()).partitions.add(partitions.get(i));
        }
    }

    private void rebalanceCooperatively(TopicState topic) {
        List<Member> members = activeMembers();
        List<Integer> unowned = new ArrayList<>(partitions);
        for (Member member : members) {
            unowned.removeAll(member.partitions);
        }
        List<Member> idle = idleMembers(members);
        List<Member> receivers = idle.isEmpty() ? members : idle;
        for (int i = 0; i < unowned.size(); i++) {
            receivers.get(i % receivers.size()).partitions.add(unowned.get(i));
        }

        idle = idleMembers(members);
        if (idle.isEmpty()) {
            return;
        }
        int fair = partitions.size() / members.size();
        int remainder = partitions.size() % members.size();
        List<Integer> surplus = new ArrayList<>();
        List<Member> surplusOwners = new ArrayList<>();
        for (Member member : members) {
            int allowed = fair;
            if (remainder > 0 && member.partitions.size() > fair) {
                allowed = fair + 1;
                remainder--;
            }
            for (int i = allowed; i < member.partitions.size(); i++) {
                int partition = member.partitions.get(member.partitions.size() - 1 - (i - allowed));
                surplus.add(partition);
                surplusOwners.add(member);
            }
        }
        int[] received = new int[idle.size()];
        int target = 0;
        long now = System.nanoTime();
        for (int i = 0; i < surplus.size(); i++) {
            // Give each idle member up to its fair share, turn by turn.
            int attempts = 0;
            while (received[target] >= fair + 1 && attempts < idle.size()) {
                target = (target + 1) % idle.size();
                attempts++;
            }
            if (attempts == idle.size()) {
                break;
            }
            pending.add(
                    new Revocation(surplus.get(i), surplusOwners.get(i), idle.get(target), now));
            received[target]++;
            target = (target + 1) % idle.size();
        }
        completeRevocations(topic);
    }

    private static List<Member> idleMembers(List<Member> members) {
        List<Member> idle = new ArrayList<>();
        for (Member member : members) {
            if (member.partitions.isEmpty()) {
                idle.add(member);
            }
        }
        return idle;
    }

    private boolean isPendingRevocation(int partition) {
        for (Revocation revocation : pending) {
            if (revocation.partition() == partition) {
                return true;
            }
        }
        return false;
    }

    /**
     * Completes the revocations the group has caught up on: it never polled the partition, or its
     * stored offset reached the last offset polled; or the rebalancing timeout passed.
     */
    private void completeRevocations(TopicState topic) {
        long now = System.nanoTime();
        Iterator<Revocation> iterator = pending.iterator();
        while (iterator.hasNext()) {
            Revocation revocation = iterator.next();
            if (caughtUp(revocation.partition(), topic)
                    || now - revocation.startedAtNanos() >= rebalancingTimeoutNanos) {
                revocation.from().partitions.remove((Integer) revocation.partition());
                revocation.to().partitions.add(revocation.partition());
                iterator.remove();
            }
        }
    }

    private boolean caughtUp(int partitionId, TopicState topic) {
        if (partitionId >= topic.partitions.size()) {
            return true;
        }
        PartitionLog partition = topic.partitions.get(partitionId);
        Long lastPolled = partition.groupLastPolled().get(id);
        if (lastPolled == null) {
            return true;
        }
        Long stored = partition.groupOffsets().get(id);
        return stored != null && stored >= lastPolled;
    }
}
