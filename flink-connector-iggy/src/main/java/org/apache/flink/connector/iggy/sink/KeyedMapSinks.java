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

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.sink.reconcile.ChangeEncoder;

import java.util.ArrayList;

/** The keyed-map sink for any change type (the SQL sink's rows), and the texts of its errors. */
@Internal
public final class KeyedMapSinks {

    private KeyedMapSinks() {}

    /**
     * A keyed-map sink for {@code encoder}'s changes with the options of {@code builder} (but its
     * schemas and functions).
     *
     * @param deletesFix what makes deletes writable, for the error of a delete of a sent key
     * @param routes whether {@code encoder} routes changes, so that the builder's topic is optional
     * @throws IllegalArgumentException naming every invalid option of the builder
     */
    public static <IN> IggyKeyedMapSink<IN> of(
            IggyKeyedMapSinkBuilder<?, ?> builder,
            ChangeEncoder<IN> encoder,
            String deletesFix,
            boolean routes) {
        return builder.buildSink(encoder, tombstoneError(deletesFix), new ArrayList<>(), routes);
    }

    /** The error a delete of a sent key gets when the sink cannot write deletes. */
    public static String tombstoneError(String deletesFix) {
        return "Iggy does not support Kafka-style tombstones. Provide "
                + deletesFix
                + " or encode deletes in the payload.";
    }

    /** A change for an error message, cut short: it may be large. */
    public static String describe(Object change) {
        String text = String.valueOf(change);
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
