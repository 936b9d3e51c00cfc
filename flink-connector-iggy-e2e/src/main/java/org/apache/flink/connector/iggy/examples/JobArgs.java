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
package org.apache.flink.connector.iggy.examples;

import org.apache.flink.connector.iggy.common.IggyConnectionConfig;

import javax.annotation.Nullable;

import java.util.Arrays;

/** {@code --name value} program arguments of the cluster jobs. */
final class JobArgs {

    private JobArgs() {}

    /**
     * The connection of {@code --address}, and of {@code --username} and {@code --password} when
     * given; otherwise the credentials come from the Flink configuration or the environment ({@code
     * IGGY_USERNAME}, {@code IGGY_PASSWORD}), and building fails naming them when none is set.
     */
    static IggyConnectionConfig connection(String[] args) {
        IggyConnectionConfig.Builder connection =
                IggyConnectionConfig.builder().setAddress(required(args, "--address"));
        String username = option(args, "--username");
        if (username != null) {
            connection.setCredentials(username, option(args, "--password"));
        }
        return connection.build();
    }

    static boolean flag(String[] args, String name) {
        return Arrays.asList(args).contains(name);
    }

    @Nullable
    static String option(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return null;
    }

    static String orDefault(String[] args, String name, String fallback) {
        String value = option(args, name);
        return value == null ? fallback : value;
    }

    static String required(String[] args, String name) {
        String value = option(args, name);
        if (value == null) {
            throw new IllegalArgumentException("Missing program argument " + name);
        }
        return value;
    }
}
