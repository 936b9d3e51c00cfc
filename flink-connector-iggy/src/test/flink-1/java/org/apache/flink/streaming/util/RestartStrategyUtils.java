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
package org.apache.flink.streaming.util;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.time.Duration;

/**
 * Flink 2's test helper of this name (in flink-runtime's test jar there), for the Flink 1 build:
 * the connector's tests set restart strategies the same way on every Flink line.
 */
public final class RestartStrategyUtils {

    private RestartStrategyUtils() {}

    public static void configureNoRestartStrategy(StreamExecutionEnvironment env) {
        Configuration config = new Configuration();
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(config);
    }

    public static void configureFixedDelayRestartStrategy(
            StreamExecutionEnvironment env, int attempts, long delayMillis) {
        configureFixedDelayRestartStrategy(env, attempts, Duration.ofMillis(delayMillis));
    }

    public static void configureFixedDelayRestartStrategy(
            StreamExecutionEnvironment env, int attempts, Duration delay) {
        Configuration config = new Configuration();
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, attempts);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, delay);
        env.configure(config);
    }
}
