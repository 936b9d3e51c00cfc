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
package org.apache.flink.connector.iggy.sink.internal;

import org.apache.flink.connector.iggy.common.IggyHeaderValue;
import org.apache.flink.connector.iggy.common.IggyHeaders;
import org.apache.flink.connector.iggy.common.IggyHeadersInternals;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.OutgoingMessage;
import org.apache.flink.connector.iggy.sink.WriteAheadTesting;
import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyCommittableSerializerTest {

    private final IggyCommittableSerializer serializer = new IggyCommittableSerializer();

    /** The committable stored in {@code serializer/iggy-committable-v1.bin}. */
    static IggyCommittable fixture() {
        byte[] tag = IggyCommittable.tag(0x1234_5678_9ABC_0002L, 42);
        List<OutgoingMessage> messages = new ArrayList<>();
        messages.add(message(tag, 0, "a", IggyHeaders.empty(), 5));
        messages.add(
                message(
                        tag,
                        1,
                        "héllo",
                        IggyHeaders.of("k", IggyHeaderValue.ofRaw(new byte[] {1, 2})),
                        6));
        messages.add(message(tag, 2, "", IggyHeaders.empty(), 0));
        return new IggyCommittable(
                IggyId.of("orders"), IggyId.of(7), 3, 42, tag, 1000, new InlineMessages(messages));
    }

    /** The committable stored in {@code serializer/iggy-committable-v2-spill-file.bin}. */
    static IggyCommittable spillFileFixture() {
        return new IggyCommittable(
                IggyId.of("orders"),
                IggyId.of(7),
                3,
                42,
                IggyCommittable.tag(0x1234_5678_9ABC_0002L, 42),
                1000,
                new SpillFile(new Path("s3://bucket/wal/job/op/writer/42-0"), 3, 123));
    }

    /** A committable of an older connector, with its messages inline, still restores. */
    @Test
    void version1FixtureStillReadsWithItsMessagesInline() throws IOException {
        byte[] stored = stored("serializer/iggy-committable-v1.bin");

        assertThat(describe(serializer.deserialize(1, stored))).isEqualTo(describe(fixture()));
    }

    @Test
    void version2FixturesAreStableByteForByte() throws IOException {
        byte[] inline = stored("serializer/iggy-committable-v2-inline.bin");
        byte[] spillFile = stored("serializer/iggy-committable-v2-spill-file.bin");

        assertThat(serializer.getVersion()).isEqualTo(2);
        assertThat(serializer.serialize(fixture())).isEqualTo(inline);
        assertThat(describe(serializer.deserialize(2, inline))).isEqualTo(describe(fixture()));
        assertThat(serializer.serialize(spillFileFixture())).isEqualTo(spillFile);
        IggyCommittable restored = serializer.deserialize(2, spillFile);
        assertThat(restored.toString()).isEqualTo(spillFileFixture().toString());
        assertThat(restored.storedMessages())
                .isInstanceOfSatisfying(
                        SpillFile.class,
                        file -> {
                            assertThat(file.path())
                                    .isEqualTo(new Path("s3://bucket/wal/job/op/writer/42-0"));
                            assertThat(file.count()).isEqualTo(3);
                            assertThat(file.length()).isEqualTo(123);
                        });
        assertThat(restored.tag()).isEqualTo(spillFileFixture().tag());
        assertThat(restored.readFrom()).isEqualTo(1000);
        assertThat(IggyCommittableSerializer.serializedSize(spillFileFixture()))
                .isEqualTo(spillFile.length);
    }

    /** A spill file's handle is all a checkpoint stores, however many messages the file has. */
    @Test
    void aSpillFileHandleIsSmallWhateverItsMessages() throws IOException {
        IggyCommittable handle =
                new IggyCommittable(
                        IggyId.of("s"),
                        IggyId.of("t"),
                        0,
                        1,
                        IggyCommittable.tag(1, 1),
                        0,
                        new SpillFile(new Path("file:/tmp/wal/a/b/c/1-0"), 1_000_000, 123_456_789));
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
    void roundTripsAnEmptyAndALargeCommittable() throws IOException {
        byte[] tag = IggyCommittable.tag(1, 1);
        List<OutgoingMessage> many = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add(message(tag, i, "m" + i, IggyHeaders.empty(), i));
        }
        for (IggyCommittable c :
                List.of(
                        new IggyCommittable(
                                IggyId.of(1),
                                IggyId.of("t"),
                                0,
                                1,
                                tag,
                                0,
                                new InlineMessages(List.of())),
                        new IggyCommittable(
                                IggyId.of("s"),
                                IggyId.of("t"),
                                9,
                                1,
                                tag,
                                77,
                                new InlineMessages(many)))) {
            assertThat(describe(serializer.deserialize(2, serializer.serialize(c))))
                    .isEqualTo(describe(c));
        }
    }

    /** The serializer writes into a buffer of this size and hands it over without a copy. */
    @Test
    void serializedSizeIsExactForNamesHeadersAndEmptyCommittables() throws IOException {
        byte[] tag = IggyCommittable.tag(1, 1);
        List<OutgoingMessage> withHeaders = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            withHeaders.add(
                    message(
                            tag,
                            i,
                            "payload " + i,
                            i % 3 == 0
                                    ? IggyHeaders.empty()
                                    : IggyHeaders.of(
                                            "key" + i, IggyHeaderValue.ofRaw(new byte[i % 7])),
                            i));
        }
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
                                new InlineMessages(List.of())),
                        // one-, two- and three-byte characters of modified UTF-8, and U+0000
                        new IggyCommittable(
                                IggyId.of("zürich-€-\u0000"),
                                IggyId.of("t"),
                                4,
                                1,
                                tag,
                                9,
                                new InlineMessages(withHeaders)))) {
            byte[] serialized = serializer.serialize(c);
            assertThat(IggyCommittableSerializer.serializedSize(c))
                    .as("size of %s", c)
                    .isEqualTo(serialized.length);
            assertThat(describe(serializer.deserialize(2, serialized))).isEqualTo(describe(c));
        }
    }

    @Test
    void unknownVersionIsRejectedWithAClearMessage() {
        assertThatThrownBy(() -> serializer.deserialize(3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
    }

    private static OutgoingMessage message(
            byte[] tag, int sequence, String payload, IggyHeaders headers, long timestamp) {
        return new OutgoingMessage(
                bytes(payload), headers, IggyCommittable.messageId(tag, sequence), timestamp);
    }

    /** Everything the committer sends, as text (messages compare arrays by reference). */
    static String describe(IggyCommittable c) {
        StringBuilder text =
                new StringBuilder(c.toString())
                        .append(" from ")
                        .append(c.readFrom())
                        .append(' ')
                        .append(HexFormat.of().formatHex(c.tag()));
        for (OutgoingMessage m : WriteAheadTesting.messages(c)) {
            text.append("\n ")
                    .append(HexFormat.of().formatHex(m.wireId()))
                    .append(' ')
                    .append(m.originTimestampMicros())
                    .append(' ')
                    .append(HexFormat.of().formatHex(m.payload()))
                    .append(' ')
                    .append(m.payload().length)
                    .append(' ')
                    .append(m.headers().encodedLength());
            IggyHeadersInternals.view(m.headers())
                    .forEach(
                            (k, v) ->
                                    text.append(' ')
                                            .append(k)
                                            .append('=')
                                            .append(v.kind())
                                            .append(HexFormat.of().formatHex(v.bytes())));
        }
        return text.toString();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] stored(String path) throws IOException {
        try (InputStream in =
                IggyCommittableSerializerTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return in.readAllBytes();
        }
    }
}
