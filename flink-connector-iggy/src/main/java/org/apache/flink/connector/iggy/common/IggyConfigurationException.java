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
 * A failure that retrying cannot mend, because the job's configuration or the server's does not fit
 * (rejected credentials, a missing stream or topic, a missing permission, TLS on one side only).
 * Flink fails the job without a restart when this annotated exception is anywhere in the failure's
 * cause chain. A failure that may pass is a plain {@link IggyConnectorException}.
 */
@Internal
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public class IggyConfigurationException extends IggyConnectorException {

    private static final long serialVersionUID = 1L;

    public IggyConfigurationException(String message) {
        super(message);
    }
}
