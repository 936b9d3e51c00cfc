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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link IggyId}'s equality, which the sink's per-topic maps rely on for every record. */
class IggyIdTest {

    @Test
    void equalIdsHashAlike() {
        assertThat(IggyId.of("orders")).isEqualTo(IggyId.of("orders"));
        assertThat(IggyId.of("orders").hashCode()).isEqualTo(IggyId.of("orders").hashCode());
        assertThat(IggyId.of(7)).isEqualTo(IggyId.of(7));
        assertThat(IggyId.of(7).hashCode()).isEqualTo(IggyId.of(7).hashCode());
    }

    @Test
    void aNameAndANumberAreDifferentIds() {
        assertThat(IggyId.of("7")).isNotEqualTo(IggyId.of(7));
        assertThat(IggyId.of("orders")).isNotEqualTo(IggyId.of("payments"));
        assertThat(IggyId.of(1).hashCode()).isNotEqualTo(IggyId.of(2).hashCode());
    }
}
