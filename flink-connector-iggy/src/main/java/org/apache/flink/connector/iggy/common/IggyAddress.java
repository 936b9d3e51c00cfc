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

import javax.annotation.Nullable;

import java.util.List;

/** An Iggy server's TCP address, parsed from {@code host:port} ({@code [::1]:8090} for IPv6). */
@Internal
record IggyAddress(String host, int port) {

    private static final String EXAMPLE = "localhost:8090";

    /** Parses {@code address}, or adds a problem naming it and an example and returns null. */
    @Nullable
    static IggyAddress parse(@Nullable String address, String howToSet, List<String> problems) {
        if (address == null || address.isBlank()) {
            problems.add(
                    "the address is missing: set it as host:port with "
                            + howToSet
                            + ", e.g. "
                            + EXAMPLE);
            return null;
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            problems.add("the address '" + address + "' is not host:port, e.g. " + EXAMPLE);
            return null;
        }
        String host = address.substring(0, colon).trim();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            problems.add(
                    "the address '" + address + "' has no valid port (1-65535), e.g. " + EXAMPLE);
            return null;
        }
        return new IggyAddress(host, port);
    }
}
