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
package org.apache.flink.connector.iggy.benchmark;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The record counts the benchmark commands in docs/benchmarks.md are written with. */
class SinkBenchmarkCountTest {

    @Test
    void aCountIsDigitsWithThousandsOrMillionsIfWanted() {
        assertThat(SinkBenchmark.count("300000")).isEqualTo(300_000);
        assertThat(SinkBenchmark.count("750k")).isEqualTo(750_000);
        assertThat(SinkBenchmark.count("4.5M")).isEqualTo(4_500_000);
        assertThat(SinkBenchmark.count("100M")).isEqualTo(100_000_000);
    }

    @Test
    void anythingElseIsRefusedNamingTheCountAndTheForms() {
        for (String bad : new String[] {"3G", "1.5", "3000M", "many"}) {
            assertThatThrownBy(() -> SinkBenchmark.count(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("300k, 4.5M");
        }
    }
}
