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
package org.apache.flink.connector.iggy.table.catalog;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The catalog options, checked by the factory without a server. */
class IggyCatalogFactoryTest {

    private static final Map<String, String> CONNECTION =
            Map.of("address", "localhost:8090", "username", "u", "password", "hidden-pw");

    private static IggyCatalogFactory.Settings settings(Map<String, String> options) {
        Map<String, String> all = new java.util.HashMap<>(CONNECTION);
        all.putAll(options);
        return IggyCatalogFactory.settings(Configuration.fromMap(all), new Configuration());
    }

    @Test
    void everyInvalidOptionIsNamedAtOnce() {
        assertThatThrownBy(
                        () ->
                                settings(
                                        Map.of(
                                                "address", "no-port",
                                                "default.partitions", "0",
                                                "default.scan.startup.mode", "timestamp",
                                                "default.scan.bounded.mode", "specific-offsets")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'no-port' is not host:port")
                .hasMessageContaining("'default.partitions' must be at least 1, but is 0")
                .hasMessageContaining("'default.scan.startup.mode' must be")
                .hasMessageContaining("'default.scan.bounded.mode' must be")
                .hasMessageNotContaining("hidden-pw");
    }

    @Test
    void validOptionsBecomeTheSettingsWithoutShowingSecrets() {
        IggyCatalogFactory.Settings settings =
                settings(
                        Map.of(
                                "default-database", "shop",
                                "default.partitions", "3",
                                "default.scan.startup.mode", "earliest-offset",
                                "allow-drops", "true"));

        assertThat(settings.defaultDatabase()).isEqualTo("shop");
        assertThat(settings.defaultPartitions()).isEqualTo(3);
        assertThat(settings.allowDrops()).isTrue();
        assertThat(settings.connection().address()).isEqualTo("localhost:8090");
        assertThat(settings.connectionOptions()).containsEntry("password", "hidden-pw");
        assertThat(settings.scanDefaults())
                .containsExactly(Map.entry("scan.startup.mode", "earliest-offset"));
        assertThat(settings.toString()).doesNotContain("hidden-pw");
    }
}
