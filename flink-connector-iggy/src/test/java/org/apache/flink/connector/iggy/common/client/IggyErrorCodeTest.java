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
package org.apache.flink.connector.iggy.common.client;

import org.apache.flink.connector.iggy.common.IggyConnectorException;

import org.apache.iggy.exception.IggyServerException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class IggyErrorCodeTest {

    @Test
    void looksUpTheServersNumbers() {
        assertThat(IggyErrorCode.fromCode(3007)).contains(IggyErrorCode.PARTITION_NOT_FOUND);
        assertThat(IggyErrorCode.fromCode(1009)).contains(IggyErrorCode.STREAM_ID_NOT_FOUND);
        assertThat(IggyErrorCode.fromCode(2013)).contains(IggyErrorCode.TOPIC_NAME_ALREADY_EXISTS);
        assertThat(IggyErrorCode.fromCode(4022)).contains(IggyErrorCode.TOO_BIG_MESSAGE_PAYLOAD);
        assertThat(IggyErrorCode.fromCode(99_999)).isEmpty();
    }

    @Test
    void everyNumberNamesOneError() {
        assertThat(IggyErrorCode.values()).extracting(IggyErrorCode::code).doesNotHaveDuplicates();
        for (IggyErrorCode error : IggyErrorCode.values()) {
            assertThat(IggyErrorCode.fromCode(error.code())).contains(error);
        }
    }

    @Test
    void findsTheServersAnswerAmongTheCauses() {
        Throwable failure =
                new IggyConnectorException(
                        "outer", new CompletionException(new IggyServerException(2010)));

        assertThat(IggyErrorCode.of(failure)).contains(IggyErrorCode.TOPIC_ID_NOT_FOUND);
        assertThat(IggyErrorCode.TOPIC_ID_NOT_FOUND.isCauseOf(failure)).isTrue();
        assertThat(IggyErrorCode.STREAM_ID_NOT_FOUND.isCauseOf(failure)).isFalse();
    }

    @Test
    void noServerAnswerIsNoCode() {
        assertThat(IggyErrorCode.of(new IllegalStateException("x"))).isEmpty();
        assertThat(IggyErrorCode.of(new IggyServerException(12_345))).isEmpty();
        assertThat(IggyErrorCode.PARTITION_NOT_FOUND.isCauseOf(new RuntimeException())).isFalse();
    }

    @Test
    void printsNumberAndName() {
        assertThat(IggyErrorCode.PARTITION_NOT_FOUND).hasToString("3007 (PARTITION_NOT_FOUND)");
    }
}
