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
package org.apache.flink.connector.iggy.source.split;

import org.apache.flink.connector.iggy.common.IggyId;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyPartitionSplitSerializerTest {

    /** The split stored in {@code serializer/iggy-partition-split-v1.bin}. */
    static final IggyPartitionSplit FIXTURE_SPLIT =
            new IggyPartitionSplit(IggyId.of("orders"), IggyId.of(7), 3, 42, 100);

    private final IggyPartitionSplitSerializer serializer = IggyPartitionSplitSerializer.INSTANCE;

    @Test
    void version1FixtureIsStableByteForByte() throws IOException {
        byte[] stored = fixture("serializer/iggy-partition-split-v1.bin");

        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(FIXTURE_SPLIT)).isEqualTo(stored);
        assertThat(serializer.deserialize(1, stored)).isEqualTo(FIXTURE_SPLIT);
    }

    @Test
    void roundTripsNamedNumericAndUnboundedSplits() throws IOException {
        for (IggyPartitionSplit split :
                new IggyPartitionSplit[] {
                    new IggyPartitionSplit(IggyId.of(0), IggyId.of("t"), 0, 0, 0),
                    new IggyPartitionSplit(
                            IggyId.of("s"),
                            IggyId.of("héllo"),
                            999,
                            Long.MAX_VALUE - 1,
                            IggyPartitionSplit.NO_STOPPING_OFFSET)
                }) {
            assertThat(serializer.deserialize(1, serializer.serialize(split))).isEqualTo(split);
        }
    }

    @Test
    void unknownVersionIsRejectedWithAClearMessage() {
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
    }

    static byte[] fixture(String path) throws IOException {
        try (InputStream in =
                IggyPartitionSplitSerializerTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return in.readAllBytes();
        }
    }
}
