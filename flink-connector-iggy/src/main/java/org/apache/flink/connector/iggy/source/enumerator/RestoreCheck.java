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
package org.apache.flink.connector.iggy.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.iggy.common.IggyConfigurationException;
import org.apache.flink.connector.iggy.source.internal.TopicSubscription;
import org.apache.flink.connector.iggy.source.split.TopicPath;

import java.util.Collection;

/** The errors of a restore that does not match the source's configuration: no restarts. */
@Internal
public final class RestoreCheck {

    private RestoreCheck() {}

    public static IggyConfigurationException notSubscribed(
            Collection<String> topics, TopicSubscription subscription) {
        return new IggyConfigurationException(
                "The restored state of the Iggy source holds splits of "
                        + String.join(", ", topics)
                        + ", which the source no longer reads: it now reads "
                        + subscription.describe()
                        + ". Reading the configured topics at offsets restored for other ones would"
                        + " skip or repeat messages, so the job stops. Configure the topics the"
                        + " state was written for again, or start the job without its state (no"
                        + " savepoint), or with a new uid on the source, so that it starts at its"
                        + " configured starting position; to keep other operators' state, restore"
                        + " with --allowNonRestoredState after changing the source's uid.");
    }

    public static IggyConfigurationException assignedTwice(TopicPath topic) {
        return new IggyConfigurationException(
                "A partition of "
                        + topic
                        + " was assigned to the reader that restored it already: the restored"
                        + " enumerator state does not know that it was read, and reading it again"
                        + " would emit its messages twice. Start the job without its state, or with"
                        + " a new uid on the source.");
    }
}
