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
import org.apache.flink.connector.iggy.common.client.IggyClients;
import org.apache.flink.connector.iggy.common.client.IggyErrorCode;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.FlinkRuntimeException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

/**
 * A failed partition discovery is counted and logged, and the next interval tries again; {@link
 * #MAX_CONSECUTIVE} failures in a row, or one that retrying cannot mend (credentials, permissions),
 * fail the job.
 *
 * <p>Coordinator thread only.
 */
@Internal
final class DiscoveryFailures {

    private static final Logger LOG = LoggerFactory.getLogger(DiscoveryFailures.class);

    static final int MAX_CONSECUTIVE = 5;

    private final Counter counter;
    private int consecutive;

    DiscoveryFailures(Counter counter) {
        this.counter = counter;
    }

    void succeeded() {
        consecutive = 0;
    }

    /** Returns what to fail the job with, or null to try again. */
    @Nullable
    FlinkRuntimeException failed(String description, Throwable error) {
        counter.inc();
        consecutive++;
        String cause = IggyClients.asRuntime(error).getMessage();
        if (isConfigurationError(error)) {
            return new FlinkRuntimeException(
                    "Partition discovery failed for " + description + ": " + cause, error);
        }
        if (consecutive >= MAX_CONSECUTIVE) {
            return new FlinkRuntimeException(
                    "Partition discovery failed "
                            + consecutive
                            + " times in a row for "
                            + description
                            + "; the last failure: "
                            + cause,
                    error);
        }
        LOG.warn(
                "Partition discovery failed for {} ({} of {} failures in a row before the job fails);"
                        + " trying again at the next interval: {}",
                description,
                consecutive,
                MAX_CONSECUTIVE,
                cause);
        return null;
    }

    private static boolean isConfigurationError(Throwable error) {
        return ExceptionUtils.findThrowable(error, IggyConfigurationException.class).isPresent()
                || IggyErrorCode.INVALID_CREDENTIALS.isCauseOf(error)
                || IggyErrorCode.INVALID_USERNAME.isCauseOf(error)
                || IggyErrorCode.INVALID_PASSWORD.isCauseOf(error)
                || IggyErrorCode.USER_INACTIVE.isCauseOf(error)
                || IggyErrorCode.PERSONAL_ACCESS_TOKEN_EXPIRED.isCauseOf(error);
    }
}
