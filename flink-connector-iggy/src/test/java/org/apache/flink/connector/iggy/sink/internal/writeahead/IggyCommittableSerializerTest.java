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
package org.apache.flink.connector.iggy.sink.internal.writeahead;

import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyCommittableSerializerTest {

    private final IggyCommittableSerializer serializer = new IggyCommittableSerializer();

    /** The committable stored in {@code serializer/iggy-committable-v1.bin}. */
    static IggyCommittable fixture() {
        return new IggyCommittable(
                IggyId.of("orders"),
                IggyId.of(7),
                3,
                42,
                IggyCommittable.tag(0x1234_5678_9ABC_0002L, 42),
                1000,
                new WriteAheadFile(new Path("s3://bucket/wal/job/op/writer/42-0"), 3, 123));
    }

    @Test
    void version1FixtureIsStableByteForByte() throws IOException {
        byte[] stored = stored("serializer/iggy-committable-v1.bin");

        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(fixture())).isEqualTo(stored);
        IggyCommittable restored = serializer.deserialize(1, stored);
        assertThat(describe(restored)).isEqualTo(describe(fixture()));
    }

    /** A write-ahead file's handle is all a checkpoint stores, however many messages it has. */
    @Test
    void aFileHandleIsSmallWhateverItsMessages() throws IOException {
        IggyCommittable handle =
                new IggyCommittable(
                        IggyId.of("s"),
                        IggyId.of("t"),
                        0,
                        1,
                        IggyCommittable.tag(1, 1),
                        0,
                        new WriteAheadFile(
                                new Path("file:/tmp/wal/a/b/c/1-0"), 1_000_000, 123_456_789));
        assertThat(serializer.serialize(handle)).hasSizeLessThan(100);
    }

    @Test
    void idsFollowFromTagAndPosition() {
        IggyCommittable committable = fixture();
        byte[] id = IggyCommittable.messageId(committable.tag(), 1);
        assertThat(HexFormat.of().formatHex(id))
                .isEqualTo("01000000" + "2a000000" + "0200" + "bc9a78563412");
        assertThat(committable.sequenceOf(id)).isEqualTo(1);
        assertThat(committable.sequenceOf(IggyCommittable.messageId(committable.tag(), 3)))
                .as("beyond the committable")
                .isEqualTo(-1);
        byte[] otherCheckpoint =
                IggyCommittable.messageId(IggyCommittable.tag(0x1234_5678_9ABC_0002L, 43), 1);
        byte[] otherWriter =
                IggyCommittable.messageId(IggyCommittable.tag(0x1234_5678_9ABC_0003L, 42), 1);
        assertThat(committable.sequenceOf(otherCheckpoint)).isEqualTo(-1);
        assertThat(committable.sequenceOf(otherWriter)).isEqualTo(-1);
    }

    @Test
    void namesAndPathsRoundTrip() throws IOException {
        byte[] tag = IggyCommittable.tag(1, 1);
        for (IggyCommittable c :
                List.of(
                        fixture(),
                        new IggyCommittable(
                                IggyId.of(1),
                                IggyId.of(2),
                                0,
                                1,
                                tag,
                                0,
                                new WriteAheadFile(new Path("file:/wal/1-0"), 0, 8)),
                        // one-, two- and three-byte characters of modified UTF-8, and U+0000
                        new IggyCommittable(
                                IggyId.of("zürich-€-\u0000"),
                                IggyId.of("t"),
                                4,
                                1,
                                tag,
                                9,
                                new WriteAheadFile(
                                        new Path("file:/wal/zürich-€/1-0"), 10_000, 1L << 40)))) {
            assertThat(describe(serializer.deserialize(1, serializer.serialize(c))))
                    .isEqualTo(describe(c));
        }
    }

    @Test
    void unknownVersionIsRejectedWithAClearMessage() {
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
    }

    /** Everything the checkpoint holds of the committable, as text. */
    private static String describe(IggyCommittable c) {
        WriteAheadFile file = c.file();
        return c
                + " from "
                + c.readFrom()
                + ' '
                + HexFormat.of().formatHex(c.tag())
                + " in "
                + file.path()
                + ' '
                + file.count()
                + ' '
                + file.length();
    }

    private static byte[] stored(String path) throws IOException {
        try (InputStream in =
                IggyCommittableSerializerTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return in.readAllBytes();
        }
    }
}
