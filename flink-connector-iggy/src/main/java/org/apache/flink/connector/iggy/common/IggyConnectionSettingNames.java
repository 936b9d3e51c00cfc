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

import java.io.Serializable;

/**
 * How the user of one API sets each connection property (the builder's setters, or the options of
 * the SQL connectors and the catalog), so that messages of {@link
 * IggyConnectionConfig.Builder#build()} and of connection failures name the fix in the words of the
 * API the user used.
 */
@Internal
public record IggyConnectionSettingNames(
        String address,
        String credentials,
        String password,
        String personalAccessToken,
        String tlsOn,
        String tlsOff,
        String tlsCertificate)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The setters of {@link IggyConnectionConfig.Builder}. */
    public static final IggyConnectionSettingNames BUILDER =
            new IggyConnectionSettingNames(
                    "setAddress",
                    "setCredentials",
                    "setCredentials",
                    "setPersonalAccessToken",
                    "setTlsEnabled(true)",
                    "setTlsEnabled(false)",
                    "setTlsCertificate");

    /** A connection builder whose messages name each property as these names say. */
    public IggyConnectionConfig.Builder newBuilder() {
        return IggyConnectionConfig.builder().setSettingNames(this);
    }
}
