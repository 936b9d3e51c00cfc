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
package org.apache.flink.connector.iggy.sink.internal.committer;

import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.connector.iggy.sink.internal.writeahead.IggyCommittable;

/** A commit request as Flink's committer operator hands it over, recording the outcome. */
public final class RecordingCommitRequest implements CommitRequest<IggyCommittable> {

    private final IggyCommittable committable;
    public final int retries;
    public String outcome = "committed";

    public RecordingCommitRequest(IggyCommittable committable) {
        this(committable, 0);
    }

    public RecordingCommitRequest(IggyCommittable committable, int retries) {
        this.committable = committable;
        this.retries = retries;
    }

    @Override
    public IggyCommittable getCommittable() {
        return committable;
    }

    @Override
    public int getNumberOfRetries() {
        return retries;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
        outcome = "dropped";
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
        outcome = "failed";
        // as Flink's implementation does: the job fails
        throw new IllegalStateException("Failed to commit " + committable, t);
    }

    @Override
    public void retryLater() {
        outcome = "retry";
    }

    @Override
    public void updateAndRetryLater(IggyCommittable committable) {
        outcome = "retry";
    }

    @Override
    public void signalAlreadyCommitted() {
        outcome = "already committed";
    }
}
