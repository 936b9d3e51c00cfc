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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.connector.iggy.common.IggyConnectorException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which earlier connections a committer waits for, and which committers stop, by their epochs. */
class CommitterEpochsTest {

    @TempDir Path dir;

    @Test
    void aNewCommitterOwesItsSubtasksEarlierConnectionsNotItsSiblings() throws Exception {
        CommitterEpochs first = CommitterTesting.epochs(dir, 0, 2);
        CommitterEpochs sibling = CommitterTesting.epochs(dir, 1, 2);
        assertThat(first.start()).isEmpty();
        assertThat(sibling.start()).isEmpty();
        first.record(11);
        first.record(12);
        sibling.record(21);

        CommitterEpochs next = CommitterTesting.epochs(dir, 0, 2);
        assertThat(next.start()).containsExactlyInAnyOrder(11L, 12L);
        assertThat(next.number()).isGreaterThan(first.number());

        assertThatThrownBy(() -> first.record(13))
                .as("the earlier committer of subtask 0 is a zombie: it sends nothing more")
                .isInstanceOf(IggyConnectorException.class)
                .hasMessageContaining("A newer exactly-once Iggy committer")
                .hasMessageContaining("subtask 0 of 2")
                .hasMessageContaining("sends nothing more");
        sibling.record(22); // its sibling goes on
        next.record(31);
    }

    @Test
    void afterAChangeOfParallelismEveryEarlierConnectionIsOwedAndEveryEarlierCommitterStops()
            throws Exception {
        CommitterEpochs a = CommitterTesting.epochs(dir, 0, 2);
        CommitterEpochs b = CommitterTesting.epochs(dir, 1, 2);
        a.start();
        b.start();
        a.record(11);
        b.record(21);

        CommitterEpochs rescaled = CommitterTesting.epochs(dir, 0, 3);
        assertThat(rescaled.start())
                .as("after rescaling it may hold what either of them sent")
                .containsExactlyInAnyOrder(11L, 21L);
        CommitterEpochs newSibling = CommitterTesting.epochs(dir, 2, 3);
        assertThat(newSibling.start()).containsExactlyInAnyOrder(11L, 21L);

        assertThatThrownBy(() -> b.record(22)).isInstanceOf(IggyConnectorException.class);
        rescaled.record(41);
        newSibling.record(42);
    }

    @Test
    void onlyTheLatestEpochsFileStaysOnceItsConnectionsEndedCleanly() throws Exception {
        CommitterEpochs first = CommitterTesting.epochs(dir, 0, 1);
        first.start();
        first.record(11);
        CommitterEpochs next = CommitterTesting.epochs(dir, 0, 1);
        assertThat(next.start()).containsExactly(11L);

        next.outlasted();
        next.record(21);
        next.closedCleanly();

        try (Stream<Path> files = Files.list(dir.resolve("epochs"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .singleElement()
                    .asString()
                    .startsWith("epoch-")
                    .endsWith("-s0-p1");
        }
        CommitterEpochs third = CommitterTesting.epochs(dir, 0, 1);
        third.start();
        assertThat(third.number()).as("numbers keep growing").isGreaterThan(next.number());
    }
}
