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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggySourceEnumStateSerializerTest {

    private static final List<IggyPartitionSplit> FIXTURE_PENDING =
            List.of(
                    new IggyPartitionSplit(
                            IggyId.of("orders"),
                            IggyId.of("created"),
                            1,
                            5,
                            IggyPartitionSplit.NO_STOPPING_OFFSET),
                    new IggyPartitionSplit(IggyId.of(3), IggyId.of(4), 3, 0, 10));

    /** The state stored in {@code serializer/iggy-enumerator-state-v2.bin}. */
    static final IggySourceEnumState FIXTURE_STATE =
            new IggySourceEnumState(
                    Set.of(
                            IggyTopicPartition.of("orders", "created", 0),
                            new IggyTopicPartition(IggyId.of(3), IggyId.of(4), 2)),
                    FIXTURE_PENDING,
                    true);

    private final IggySourceEnumStateSerializer serializer = new IggySourceEnumStateSerializer();

    @Test
    void version2FixtureIsStableByteForByte() throws IOException {
        byte[] stored = fixture("serializer/iggy-enumerator-state-v2.bin");

        assertThat(serializer.getVersion()).isEqualTo(2);
        assertThat(serializer.serialize(FIXTURE_STATE)).isEqualTo(stored);
        assertThat(serializer.deserialize(2, stored)).isEqualTo(FIXTURE_STATE);
    }

    @Test
    void roundTripsAnEmptyState() throws IOException {
        IggySourceEnumState empty = new IggySourceEnumState(Set.of(), List.of(), false);
        assertThat(serializer.deserialize(2, serializer.serialize(empty))).isEqualTo(empty);
    }

    private byte[] fixture(String path) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void unknownVersionIsRejected() {
        assertThatThrownBy(() -> serializer.deserialize(9, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 9");
    }
}
