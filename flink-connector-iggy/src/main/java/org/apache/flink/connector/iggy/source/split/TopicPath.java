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
package org.apache.flink.connector.iggy.source.split;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyId;
import org.apache.flink.connector.iggy.common.IggyTopicPartition;

import java.io.Serializable;
import java.util.Objects;

/** One topic of one stream, as a split names it. */
@Internal
public record TopicPath(IggyId stream, IggyId topic) implements Serializable {

    public TopicPath {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(topic, "topic");
    }

    public IggyTopicPartition partition(long partitionId) {
        return new IggyTopicPartition(stream, topic, partitionId);
    }

    @Override
    public String toString() {
        return "topic " + topic + " of stream " + stream;
    }
}
