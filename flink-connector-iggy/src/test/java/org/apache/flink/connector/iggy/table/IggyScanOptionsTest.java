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
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.source.IggyStoppingOffsets;
import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading the {@code scan.*} options: positions, consumer name, poll options. */
class IggyScanOptionsTest {

    private static Configuration options(String... keysAndValues) {
        Configuration options = new Configuration();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            options.setString(keysAndValues[i], keysAndValues[i + 1]);
        }
        return options;
    }

    @Test
    void specificOffsetsAreParsedInOrderAllowingSpaces() {
        assertThat(
                        IggyScanOptions.parseSpecificOffsets(
                                " partition : 3 , offset : 42 ;partition:0,offset:7;",
                                IggyConnectorOptions.SCAN_STARTUP_SPECIFIC_OFFSETS))
                .containsExactly(Map.entry(3L, 42L), Map.entry(0L, 7L));
    }

    @Test
    void badSpecificOffsetsNameTheOptionAndTheEntry() {
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.parseSpecificOffsets(
                                        "partition:0,offset:1;p0=5",
                                        IggyConnectorOptions.SCAN_STARTUP_SPECIFIC_OFFSETS))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'scan.startup.specific-offsets'")
                .hasMessageContaining("'p0=5' is not 'partition:<id>,offset:<offset>'");
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.parseSpecificOffsets(
                                        "partition:1,offset:1;partition:1,offset:2",
                                        IggyConnectorOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS))
                .hasMessageContaining("partition 1 is listed twice");
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.parseSpecificOffsets(
                                        " ; ", IggyConnectorOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS))
                .hasMessageContaining("lists no offsets");
    }

    @Test
    void aScanStartsFromCommittedOffsetsByDefault() {
        assertThat(IggyScanOptions.startingOffsets(options()))
                .isEqualTo(IggyStartingOffsets.committed());
    }

    @Test
    void eachStartupModeReadsItsOwnOption() {
        assertThat(
                        IggyScanOptions.startingOffsets(
                                options(
                                        "scan.startup.mode", "timestamp",
                                        "scan.startup.timestamp-millis", "1700000000000")))
                .isEqualTo(IggyStartingOffsets.timestamp(1_700_000_000_000L));
        assertThat(
                        IggyScanOptions.startingOffsets(
                                options(
                                        "scan.startup.mode", "specific-offsets",
                                        "scan.startup.specific-offsets", "partition:0,offset:5")))
                .isEqualTo(IggyStartingOffsets.specific(Map.of(0L, 5L)));
        assertThat(IggyScanOptions.startingOffsets(options("scan.startup.mode", "earliest-offset")))
                .isEqualTo(IggyStartingOffsets.earliest());
    }

    @Test
    void anOptionOfAnotherModeOrAMissingOneIsRefused() {
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.startingOffsets(
                                        options(
                                                "scan.startup.mode", "earliest-offset",
                                                "scan.startup.timestamp-millis", "5")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'scan.startup.timestamp-millis' applies only when")
                .hasMessageContaining("'timestamp'");
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.stoppingOffsets(
                                        options("scan.bounded.mode", "specific-offsets")))
                .hasMessageContaining(
                        "'scan.bounded.specific-offsets' is required for mode 'specific-offsets'");
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.stoppingOffsets(
                                        options(
                                                "scan.bounded.mode", "timestamp",
                                                "scan.bounded.timestamp-millis", "-1")))
                .hasMessageContaining("must be epoch milliseconds >= 0");
    }

    @Test
    void anUnboundedScanHasNoStoppingOffsetsAndOnlyItDiscoversPartitions() {
        assertThat(IggyScanOptions.stoppingOffsets(options())).isNull();
        assertThat(IggyScanOptions.stoppingOffsets(options("scan.bounded.mode", "latest-offset")))
                .isEqualTo(IggyStoppingOffsets.latest());
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.stoppingOffsets(
                                        options(
                                                "scan.bounded.mode", "latest-offset",
                                                "scan.partition-discovery.interval", "1 min")))
                .hasMessageContaining("applies to unbounded scans only");
    }

    @Test
    void theConsumerNameDefaultsToTheTableAndIsLimitedTo255Characters() {
        assertThat(IggyScanOptions.consumerName(options(), "orders")).isEqualTo("flink-orders");
        assertThat(IggyScanOptions.consumerName(options("scan.consumer-name", "c"), "orders"))
                .isEqualTo("c");
        assertThatThrownBy(() -> IggyScanOptions.consumerName(options(), "t".repeat(250)))
                .hasMessageContaining("the default 'flink-<table>' is too long: set it");
        assertThatThrownBy(
                        () -> IggyScanOptions.consumerName(options("scan.consumer-name", " "), "t"))
                .hasMessageContaining("'scan.consumer-name'")
                .hasMessageNotContaining("default");
    }

    @Test
    void pollOptionsMustBePositive() {
        IggyScanOptions.validateScanOptions(options("scan.poll.batch-size", "1"));
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.validateScanOptions(
                                        options("scan.poll.batch-size", "0")))
                .hasMessage("Option 'scan.poll.batch-size' must be at least 1, but is 0.");
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.validateScanOptions(
                                        options("scan.poll.interval", "0 ms")))
                .hasMessageContaining("'scan.poll.interval' must be positive");
        assertThatThrownBy(
                        () ->
                                IggyScanOptions.validateScanOptions(
                                        options("scan.partition-discovery.interval", "0 s")))
                .hasMessageContaining("'scan.partition-discovery.interval' must be positive");
    }
}
