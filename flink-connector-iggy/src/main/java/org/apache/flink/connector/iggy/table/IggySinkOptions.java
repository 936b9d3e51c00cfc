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

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.IggyWriterConfig;
import org.apache.flink.connector.iggy.table.IggyConnectorOptions.SinkPartitioner;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;

import javax.annotation.Nullable;

import java.util.List;

import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FIELDS;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.KEY_FORMAT;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_BATCH_SIZE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_DELIVERY_GUARANTEE;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_LINGER;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_PARTITION;
import static org.apache.flink.connector.iggy.table.IggyConnectorOptions.SINK_PARTITIONER;

/**
 * Checks the {@code sink.*} options of a table: delivery guarantee, partitioner, batching and
 * state. Every failure is a {@link org.apache.flink.table.api.ValidationException} naming the
 * option and its allowed values.
 */
@Internal
final class IggySinkOptions {

    private IggySinkOptions() {}

    /** {@code sink.batch-size}, or no cap when unset. */
    static int batchSize(ReadableConfig options) {
        return options.getOptional(SINK_BATCH_SIZE).orElse(IggyWriterConfig.DEFAULT_BATCH_SIZE);
    }

    static DeliveryGuarantee deliveryGuarantee(ReadableConfig options) {
        DeliveryGuarantee guarantee = options.get(SINK_DELIVERY_GUARANTEE);
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE
                && options.getOptional(IggyConnectorOptions.SINK_IDEMPOTENT_WRITES).orElse(false)) {
            throw new ValidationException(
                    "Option '"
                            + SINK_DELIVERY_GUARANTEE.key()
                            + "' = 'exactly-once' chooses every message id itself and needs no"
                            + " deduplication: drop '"
                            + IggyConnectorOptions.SINK_IDEMPOTENT_WRITES.key()
                            + "' or use 'at-least-once'.");
        }
        return guarantee;
    }

    /**
     * Validates the sink options.
     *
     * @return the custom partitioner named by {@code sink.partitioner}, or {@code null} for a
     *     built-in one
     */
    @Nullable
    static IggyPartitioner<RowData> validateSinkOptions(
            ReadableConfig options, boolean upsert, boolean hasKey, ClassLoader classLoader) {
        deliveryGuarantee(options);
        if (options.getOptional(IggyConnectorOptions.SINK_UID)
                .filter(String::isBlank)
                .isPresent()) {
            throw new ValidationException(
                    "Option '"
                            + IggyConnectorOptions.SINK_UID.key()
                            + "' must not be blank: set an operator uid, or leave the option out"
                            + " for one derived from the table's identifier");
        }
        String partitioner = options.get(SINK_PARTITIONER);
        boolean builtIn =
                partitioner.equals(SinkPartitioner.FIXED)
                        || partitioner.equals(SinkPartitioner.KEY)
                        || (!upsert && partitioner.equals(SinkPartitioner.ROUND_ROBIN));
        if (upsert && !builtIn) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "' = '"
                            + partitioner
                            + "' for upsert-iggy. Allowed values: 'fixed', 'key'.");
        }
        IggyPartitioner<RowData> custom =
                builtIn
                        ? null
                        : InstantiationUtil.instantiate(partitionerClass(partitioner, classLoader));
        if (partitioner.equals(SinkPartitioner.KEY) && !hasKey) {
            throw new ValidationException(
                    "Option '"
                            + SINK_PARTITIONER.key()
                            + "' = 'key' needs key bytes: set '"
                            + KEY_FIELDS.key()
                            + "' and '"
                            + KEY_FORMAT.key()
                            + "'.");
        }
        long partition = options.get(SINK_PARTITION);
        if (partition < 0 || partition > 0xFFFF_FFFFL) {
            throw new ValidationException(
                    "Option '"
                            + SINK_PARTITION.key()
                            + "' is a partition id (0 to 4294967295), but is "
                            + partition);
        }
        if (options.getOptional(SINK_PARTITION).isPresent()
                && !partitioner.equals(SinkPartitioner.FIXED)) {
            throw new ValidationException(
                    "Option '"
                            + SINK_PARTITION.key()
                            + "' applies to '"
                            + SINK_PARTITIONER.key()
                            + "' = 'fixed' only, but the partitioner is '"
                            + partitioner
                            + "'.");
        }
        if (options.getOptional(SINK_BATCH_SIZE).orElse(1) < 1) {
            throw new ValidationException(
                    "Option '"
                            + SINK_BATCH_SIZE.key()
                            + "' must be at least 1, but is "
                            + options.get(SINK_BATCH_SIZE));
        }
        for (ConfigOption<? extends Number> atLeastOne :
                List.of(
                        IggyConnectorOptions.SINK_MAX_BATCH_BYTES,
                        IggyConnectorOptions.SINK_MAX_IN_FLIGHT_REQUESTS)) {
            if (options.get(atLeastOne).longValue() < 1) {
                throw new ValidationException(
                        "Option '"
                                + atLeastOne.key()
                                + "' must be at least 1, but is "
                                + options.get(atLeastOne));
            }
        }
        options.getOptional(IggyConnectorOptions.SINK_STATE_TTL)
                .ifPresent(
                        ttl ->
                                IggyConnectorOptionsUtil.requirePositive(
                                        IggyConnectorOptions.SINK_STATE_TTL.key(), ttl));
        if (options.get(SINK_LINGER).isNegative()) {
            throw new ValidationException(
                    "Option '" + SINK_LINGER.key() + "' must not be negative.");
        }
        return custom;
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends IggyPartitioner<RowData>> partitionerClass(
            String className, ClassLoader classLoader) {
        Class<?> clazz;
        try {
            clazz = Class.forName(className, false, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "' = '"
                            + className
                            + "'. Allowed values: 'fixed', 'round-robin', 'key', or the class name"
                            + " of an IggyPartitioner<RowData> with a public no-argument"
                            + " constructor (class not found).");
        }
        if (!IggyPartitioner.class.isAssignableFrom(clazz)) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "': class '"
                            + className
                            + "' does not implement "
                            + IggyPartitioner.class.getName()
                            + ".");
        }
        try {
            clazz.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new ValidationException(
                    "Invalid option '"
                            + SINK_PARTITIONER.key()
                            + "': class '"
                            + className
                            + "' has no public no-argument constructor.");
        }
        return (Class<? extends IggyPartitioner<RowData>>) clazz;
    }
}
