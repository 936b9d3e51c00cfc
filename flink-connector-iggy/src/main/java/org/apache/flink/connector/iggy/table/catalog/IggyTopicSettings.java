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
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.table.catalog.IggyCatalogFactory.TopicCompression;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.util.TimeUtils;

import javax.annotation.Nullable;

import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/**
 * The topic options of a table ({@code partitions}, {@code compression}, {@code message-expiry}) as
 * a DDL sets them, each {@code null} when unset. They live in Iggy, never in a stored definition.
 */
@Internal
record IggyTopicSettings(
        @Nullable Integer partitions,
        @Nullable TopicCompression compression,
        @Nullable Duration expiry) {

    static IggyTopicSettings of(ObjectPath path, Map<String, String> tableOptions) {
        Configuration options = Configuration.fromMap(tableOptions);
        try {
            IggyTopicSettings settings =
                    new IggyTopicSettings(
                            options.get(IggyCatalogFactory.PARTITIONS),
                            options.get(IggyCatalogFactory.COMPRESSION),
                            options.get(IggyCatalogFactory.MESSAGE_EXPIRY));
            if (settings.partitions != null && settings.partitions < 1) {
                throw new IllegalArgumentException(
                        "'" + IggyCatalogFactory.PARTITIONS.key() + "' must be at least 1");
            }
            if (settings.expiry != null && settings.expiry.isNegative()) {
                throw new IllegalArgumentException(
                        "'" + IggyCatalogFactory.MESSAGE_EXPIRY.key() + "' is negative");
            }
            return settings;
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "Invalid topic option of table " + path.getFullName() + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Creates the topic with these settings, the defaults for what they leave out.
     *
     * @return false when a topic of that name existed already (another session created it first)
     */
    boolean createTopic(
            IggyServerClient server, String stream, String topic, int defaultPartitions) {
        return server.createTopic(
                IggyId.of(stream),
                topic,
                partitions != null ? partitions : defaultPartitions,
                compression == TopicCompression.GZIP,
                expiryMicros(BigInteger.ZERO));
    }

    /**
     * Applies what an ALTER TABLE changes: compression and expiry, and more partitions.
     *
     * @param table the table's name, for the message when the settings would remove partitions
     */
    void alterTopic(IggyServerClient server, String stream, TopicDescription topic, String table) {
        int count = partitions != null ? partitions : topic.partitionsCount();
        if (count < topic.partitionsCount()) {
            throw new ValidationException(
                    "Table "
                            + table
                            + " has "
                            + topic.partitionsCount()
                            + " partitions; ALTER TABLE can add partitions but not remove them"
                            + " (their messages would be lost).");
        }
        boolean gzip = compression == null ? topic.gzip() : compression == TopicCompression.GZIP;
        BigInteger expiryMicros = expiryMicros(topic.messageExpiryMicros());
        if (gzip != topic.gzip() || !expiryMicros.equals(topic.messageExpiryMicros())) {
            server.updateTopic(IggyId.of(stream), topic, gzip, expiryMicros);
        }
        if (count > topic.partitionsCount()) {
            server.addPartitions(IggyId.of(stream), topic, count - topic.partitionsCount());
        }
    }

    private BigInteger expiryMicros(BigInteger otherwise) {
        if (expiry == null) {
            return otherwise;
        }
        return BigInteger.valueOf(expiry.getSeconds())
                .multiply(BigInteger.valueOf(1_000_000))
                .add(BigInteger.valueOf(expiry.getNano() / 1000));
    }

    /** What Iggy itself knows of a topic, as table options. */
    static Map<String, String> asOptions(TopicDescription topic) {
        Map<String, String> options = new HashMap<>();
        options.put(IggyCatalogFactory.PARTITIONS.key(), Integer.toString(topic.partitionsCount()));
        options.put(IggyCatalogFactory.COMPRESSION.key(), topic.gzip() ? "gzip" : "none");
        BigInteger expiry = topic.messageExpiryMicros();
        if (expiry != null
                && expiry.signum() > 0
                && expiry.compareTo(TopicDescription.NEVER_EXPIRE) < 0) {
            options.put(
                    IggyCatalogFactory.MESSAGE_EXPIRY.key(),
                    TimeUtils.formatWithHighestUnit(
                            Duration.of(expiry.longValueExact(), ChronoUnit.MICROS)));
        }
        return options;
    }
}
