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
import org.apache.flink.connector.iggy.common.IggyConnectionConfig;

import javax.annotation.Nullable;

import java.util.Map;

/**
 * The validated options of one {@link IggyCatalog}, as {@link IggyCatalogFactory} checked them.
 *
 * @param defaultDatabase the stream a session starts in, if any
 * @param connection the catalog's connection, credentials resolved
 * @param connectionOptions the connection options as given, which every table of the catalog gets
 * @param scanDefaults scan options every table gets unless it sets them
 * @param defaultFormat the value format of tables that set none, if any
 * @param defaultPartitions the partitions of a topic created by CREATE TABLE that sets none
 * @param allowDrops whether DROP deletes streams and topics
 */
@Internal
record IggyCatalogSettings(
        @Nullable String defaultDatabase,
        IggyConnectionConfig connection,
        Map<String, String> connectionOptions,
        Map<String, String> scanDefaults,
        @Nullable String defaultFormat,
        int defaultPartitions,
        boolean allowDrops) {

    IggyCatalogSettings {
        connectionOptions = Map.copyOf(connectionOptions);
        scanDefaults = Map.copyOf(scanDefaults);
    }
}
