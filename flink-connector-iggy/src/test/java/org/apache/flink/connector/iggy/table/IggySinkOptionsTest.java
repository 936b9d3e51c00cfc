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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Checking the {@code sink.*} options. */
class IggySinkOptionsTest {

    private static final ClassLoader LOADER = IggySinkOptionsTest.class.getClassLoader();

    private static Configuration options(String... keysAndValues) {
        Configuration options = new Configuration();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            options.setString(keysAndValues[i], keysAndValues[i + 1]);
        }
        return options;
    }

    private static void validate(Configuration options) {
        IggySinkOptions.validateSinkOptions(options, false, false, LOADER);
    }

    @Test
    void everyGuaranteeIsAcceptedAndExactlyOnceRefusesIdempotentWrites() {
        for (String guarantee : new String[] {"none", "at-least-once", "exactly-once"}) {
            validate(options("sink.delivery-guarantee", guarantee));
        }
        assertThatThrownBy(
                        () ->
                                validate(
                                        options(
                                                "sink.delivery-guarantee",
                                                "exactly-once",
                                                "sink.idempotent-writes",
                                                "true")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'sink.delivery-guarantee' = 'exactly-once'")
                .hasMessageContaining("drop 'sink.idempotent-writes'");
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        assertThatThrownBy(
                        () ->
                                validate(
                                        options(
                                                "sink.batch-size", "0",
                                                "sink.partitioner", "com.example.Missing",
                                                "sink.partition", "-1",
                                                "sink.max-in-flight-requests", "0")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'sink.batch-size' must be at least 1, but is 0; ")
                .hasMessageContaining("'com.example.Missing'")
                .hasMessageContaining("is a partition id (0 to 4294967295), but is -1")
                .hasMessageContaining("applies to 'sink.partitioner' = 'fixed' only")
                .hasMessageContaining("'sink.max-in-flight-requests' must be at least 1, but is 0");
    }

    @Test
    void builtInPartitionersNeedNoClassAndACustomOneIsInstantiated() {
        assertThat(IggySinkOptions.validateSinkOptions(options(), false, false, LOADER)).isNull();
        assertThat(
                        IggySinkOptions.validateSinkOptions(
                                options("sink.partitioner", "key"), true, true, LOADER))
                .isNull();
        assertThat(
                        IggySinkOptions.validateSinkOptions(
                                options(
                                        "sink.partitioner",
                                        IggyDynamicTableFactoryTest.FirstPartition.class.getName()),
                                false,
                                false,
                                LOADER))
                .isInstanceOf(IggyDynamicTableFactoryTest.FirstPartition.class);
    }

    @Test
    void aPartitionerThatCannotBeUsedIsNamedWithTheReason() {
        assertThatThrownBy(() -> validate(options("sink.partitioner", "com.example.Missing")))
                .hasMessageContaining("'com.example.Missing'")
                .hasMessageContaining("class not found");
        assertThatThrownBy(() -> validate(options("sink.partitioner", String.class.getName())))
                .hasMessageContaining("does not implement");
        assertThatThrownBy(() -> validate(options("sink.partitioner", "key")))
                .hasMessageContaining("'sink.partitioner' = 'key' needs key bytes");
        assertThatThrownBy(
                        () ->
                                IggySinkOptions.validateSinkOptions(
                                        options("sink.partitioner", "round-robin"),
                                        true,
                                        true,
                                        LOADER))
                .hasMessageContaining("for upsert-iggy. Allowed values: 'fixed', 'key'");
    }

    @Test
    void aFixedPartitionIsAnIggyPartitionIdAndOnlyForTheFixedPartitioner() {
        assertThatThrownBy(() -> validate(options("sink.partition", "4294967296")))
                .hasMessageContaining("is a partition id (0 to 4294967295)");
        assertThatThrownBy(
                        () ->
                                validate(
                                        options(
                                                "sink.partitioner", "round-robin",
                                                "sink.partition", "1")))
                .hasMessageContaining("applies to 'sink.partitioner' = 'fixed' only");
    }

    @Test
    void sizesCountsAndDurationsMustBeInRange() {
        assertThatThrownBy(() -> validate(options("sink.batch-size", "0")))
                .hasMessage("Option 'sink.batch-size' must be at least 1, but is 0.");
        assertThatThrownBy(() -> validate(options("sink.max-batch-bytes", "0")))
                .hasMessageContaining("'sink.max-batch-bytes' must be at least 1");
        assertThatThrownBy(() -> validate(options("sink.max-in-flight-requests", "0")))
                .hasMessageContaining("'sink.max-in-flight-requests' must be at least 1");
        assertThatThrownBy(() -> validate(options("sink.state-ttl", "0 s")))
                .hasMessageContaining("'sink.state-ttl' must be positive");
        // A negative duration does not parse from text; a Configuration built in code has one.
        Configuration negativeLinger = options();
        negativeLinger.set(IggyConnectorOptions.SINK_LINGER, Duration.ofMillis(-1));
        assertThatThrownBy(() -> validate(negativeLinger))
                .hasMessageContaining("'sink.linger' must not be negative");
    }
}
