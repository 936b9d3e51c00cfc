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
package org.apache.flink.connector.iggy.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializationSchema;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * Turns a record into the message the sink sends, for full control ({@link
 * IggySinkBuilder#setRecordSerializer}).
 *
 * @param <T> the sink's record type
 */
@PublicEvolving
public interface IggyRecordSerializationSchema<T> extends Serializable {

    /** Called once per writer before the first record, before it connects. */
    default void open(
            SerializationSchema.InitializationContext initContext, IggySinkContext sinkContext)
            throws Exception {}

    /** The message for {@code element}, or {@code null} to send nothing for it. */
    @Nullable
    IggySinkRecord serialize(T element, IggySinkContext context);
}
