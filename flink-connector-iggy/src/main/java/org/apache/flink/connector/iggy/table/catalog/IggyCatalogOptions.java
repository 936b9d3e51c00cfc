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

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanBoundedMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.ScanStartupMode;
import org.apache.flink.connector.iggy.table.IggyConnectorOptionsUtil;
import org.apache.flink.table.catalog.CommonCatalogOptions;

import java.time.Duration;
import java.util.List;

/**
 * Options of the {@code iggy} catalog ({@code CREATE CATALOG ... WITH ('type' = 'iggy', ...)}) and
 * the table options only the catalog understands. The catalog also takes the connection options of
 * the {@code iggy} table ({@link IggyConnectorOptionsUtil#CONNECTION_OPTIONS}), which every table
 * of the catalog inherits.
 */
@Internal
public final class IggyCatalogOptions {

    // ----- catalog ----------------------------------------------------------------------------

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The stream that is the current database after USE CATALOG. Unset:"
                                    + " none, so table names need their stream.");

    public static final ConfigOption<String> DEFAULT_FORMAT =
            ConfigOptions.key("default.format")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Value format of a CREATE TABLE that names none. For a topic created"
                                    + " outside Flink, 'raw' makes the payload column a STRING"
                                    + " (UTF-8); otherwise it is BYTES.");

    public static final ConfigOption<Integer> DEFAULT_PARTITIONS =
            ConfigOptions.key("default.partitions")
                    .intType()
                    .defaultValue(1)
                    .withDescription("Partitions of a topic that CREATE TABLE creates.");

    public static final ConfigOption<ScanStartupMode> DEFAULT_SCAN_STARTUP_MODE =
            ConfigOptions.key("default.scan.startup.mode")
                    .enumType(ScanStartupMode.class)
                    .noDefaultValue()
                    .withDescription(
                            "'scan.startup.mode' of every table that does not set it:"
                                    + " 'earliest-offset', 'latest-offset' or 'committed-offset'."
                                    + " Unset: the connector's default.");

    public static final ConfigOption<ScanBoundedMode> DEFAULT_SCAN_BOUNDED_MODE =
            ConfigOptions.key("default.scan.bounded.mode")
                    .enumType(ScanBoundedMode.class)
                    .noDefaultValue()
                    .withDescription(
                            "'scan.bounded.mode' of every table that does not set it:"
                                    + " 'unbounded' or 'latest-offset' (every SELECT ends at the"
                                    + " end the topic had when it started). Unset: the"
                                    + " connector's default.");

    public static final ConfigOption<Boolean> ALLOW_DROPS =
            ConfigOptions.key("allow-drops")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether DROP TABLE deletes the topic and DROP DATABASE the stream,"
                                    + " with their messages. Off: DROP TABLE only forgets the"
                                    + " table's definition and DROP DATABASE fails.");

    // ----- table: the topic -------------------------------------------------------------------

    public static final ConfigOption<Integer> PARTITIONS =
            ConfigOptions.key("partitions")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "The topic's partitions; CREATE TABLE creates that many, ALTER TABLE"
                                    + " may add more. Default: 'default.partitions'.");

    public static final ConfigOption<TopicCompression> COMPRESSION =
            ConfigOptions.key("compression")
                    .enumType(TopicCompression.class)
                    .noDefaultValue()
                    .withDescription("The topic's compression: 'none' (default) or 'gzip'.");

    public static final ConfigOption<Duration> MESSAGE_EXPIRY =
            ConfigOptions.key("message-expiry")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "How long the server keeps the topic's messages. Unset: the"
                                    + " server's default (by default, forever).");

    /** The topic options: the catalog applies them to the topic and never stores them. */
    static final List<ConfigOption<?>> TOPIC = List.of(PARTITIONS, COMPRESSION, MESSAGE_EXPIRY);

    private IggyCatalogOptions() {}

    /** Compression of a topic's messages on the server. */
    @Internal
    public enum TopicCompression {
        NONE,
        GZIP
    }
}
