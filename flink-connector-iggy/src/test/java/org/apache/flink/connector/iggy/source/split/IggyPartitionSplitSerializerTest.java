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
