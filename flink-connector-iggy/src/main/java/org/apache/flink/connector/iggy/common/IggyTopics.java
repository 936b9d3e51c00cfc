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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.TopicDescription;
import org.apache.flink.connector.iggy.common.client.TopicDescription.PartitionState;

import org.apache.iggy.client.async.tcp.AsyncIggyTcpClient;
import org.apache.iggy.partition.Partition;
import org.apache.iggy.stream.StreamDetails;
import org.apache.iggy.topic.TopicDetails;

import java.util.Optional;

/** Looks up a topic that must exist: the connector never creates or drops streams and topics. */
@Internal
public final class IggyTopics {

    private IggyTopics() {}

    /** The exclusive end of a partition: see {@link PartitionState#endOffset}. */
    public static long endOffset(Partition partition) {
        return TopicDescription.partitionState(partition).endOffset();
    }

    /**
     * The topic's details (partitions with their offsets and message counts), or an error naming
     * the address, stream and topic and saying how to fix it: an {@link IggyConfigurationException}
     * (no restart) when the stream or the topic does not exist or the user may not read it.
     */
    public static TopicDetails describe(
            AsyncIggyTcpClient client, IggyConnectionConfig config, IggyId stream, IggyId topic) {
        Optional<TopicDetails> details =
                IggyClients.await(
                        client.topics().getTopic(SdkIds.streamId(stream), SdkIds.topicId(topic)),
                        config.requestTimeout(),
                        "read topic " + topic + " of stream " + stream + " at " + config.address());
        if (details.isPresent()) {
            return details.get();
        }
        Optional<StreamDetails> streamDetails =
                IggyClients.await(
                        client.streams().getStream(SdkIds.streamId(stream)),
                        config.requestTimeout(),
                        "read stream " + stream + " at " + config.address());
        if (streamDetails.isEmpty()) {
            throw new IggyConfigurationException(
                    "Iggy stream "
                            + stream
                            + " does not exist at "
                            + config.address()
                            + ". The connector never creates streams: create it first (or fix the stream name).");
        }
        throw new IggyConfigurationException(
                "Iggy topic "
                        + topic
                        + " does not exist in stream "
                        + stream
                        + " at "
                        + config.address()
                        + ". The connector never creates topics: create it first (or fix the topic name).");
    }
}
