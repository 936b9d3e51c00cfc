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
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A failure that retrying cannot mend, because the job's configuration or the server's does not
 * fit: credentials the server rejects, a stream or topic that does not exist, a permission the user
 * lacks, TLS on one side only. Flink fails the job at once, without restarting it, whatever its
 * restart strategy: the scheduler looks for this annotation along the failure's causes ({@code
 * ExecutionFailureHandler}), so the exception counts as long as it stays in the cause chain of what
 * the task or the enumerator throws.
 *
 * <p>A failure that may pass (the server restarting, a connection cut, a timeout) is an {@link
 * IggyConnectorException} instead, and the job's restart strategy retries it.
 */
@Internal
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public class IggyConfigurationException extends IggyConnectorException {

    private static final long serialVersionUID = 1L;

    public IggyConfigurationException(String message) {
        super(message);
    }
}
