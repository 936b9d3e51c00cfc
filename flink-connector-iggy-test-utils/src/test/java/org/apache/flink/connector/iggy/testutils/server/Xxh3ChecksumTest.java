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

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The message checksum is XXH3-64 (seed 0) of the message after its 8-byte checksum field
 * (docs/development/iggy-protocol.md §7.1). The empty-input value is the published one; the others
 * come from the reference implementation ({@code xxhsum -H3}, xxHash 0.8.1) over the bytes 0, 1, 2,
 * ... of each length, chosen to cross every size class of the algorithm.
 */
class Xxh3ChecksumTest {

    @Test
    void matchesTheReferenceVectors() {
        assertThat(checksumOfPattern(0)).isEqualTo(0x2D06800538D394C2L);
        assertThat(checksumOfPattern(1)).isEqualTo(0xC44BDFF4074EECDBL);
        assertThat(checksumOfPattern(3)).isEqualTo(0x5F4299FC161C9CBBL);
        assertThat(checksumOfPattern(4)).isEqualTo(0x60DAB036A58211F2L);
        assertThat(checksumOfPattern(8)).isEqualTo(0x3A1C2D7C85AF88F8L);
        assertThat(checksumOfPattern(9)).isEqualTo(0xE9612598145BB9DCL);
        assertThat(checksumOfPattern(16)).isEqualTo(0x8355E3A6F61770DBL);
        assertThat(checksumOfPattern(17)).isEqualTo(0x9EF341A99DE37328L);
        assertThat(checksumOfPattern(128)).isEqualTo(0x85C6174C7FF4C46BL);
        assertThat(checksumOfPattern(129)).isEqualTo(0xEC7642B431BA3E5AL);
        assertThat(checksumOfPattern(240)).isEqualTo(0x375A384D957FE865L);
        assertThat(checksumOfPattern(241)).isEqualTo(0x02E8CD95421C6D02L);
        assertThat(checksumOfPattern(1024)).isEqualTo(0xA870F92984398D22L);
        assertThat(checksumOfPattern(5000)).isEqualTo(0x1B74BDA2C82A8C7AL);
    }

    /**
     * Puts the pattern behind a checksum field, inside a larger buffer with other bytes around it,
     * so the test also pins which range of the message is hashed.
     */
    private static long checksumOfPattern(int length) {
        int start = 5;
        byte[] data = new byte[start + 8 + length + 3];
        Arrays.fill(data, (byte) 0x5A);
        for (int i = 0; i < length; i++) {
            data[start + 8 + i] = (byte) i;
        }
        return PartitionLog.checksum(data, start, start + 8 + length);
    }
}
