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
import org.apache.flink.util.InstantiationUtil;

import org.apache.iggy.exception.IggyServerException;
import org.junit.jupiter.api.Test;

import java.io.NotSerializableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailureCopyTest {

    @Test
    void theSdksExceptionsCannotBeSerializedTheirCopiesCan() throws Exception {
        IggyServerException sdk = new IggyServerException(3007);
        assertThatThrownBy(() -> InstantiationUtil.serializeObject(sdk))
                .isInstanceOf(NotSerializableException.class);

        Throwable copy = FailureCopy.serializable(new IggyConnectorException("outer", sdk));

        assertThat(copy).isInstanceOf(FailureCopy.class);
        Throwable received =
                InstantiationUtil.deserializeObject(
                        InstantiationUtil.serializeObject(copy), getClass().getClassLoader());
        assertThat(received.toString())
                .startsWith(IggyConnectorException.class.getName() + ": outer; from ")
                .contains(IggyServerException.class.getName());
        assertThat(received.getCause()).isNull();
        assertThat(received.getStackTrace()).isEqualTo(sdk.getStackTrace());
    }

    @Test
    void otherFailuresAreKeptAsTheyAre() {
        IllegalStateException plain = new IllegalStateException("disk full");

        assertThat(FailureCopy.serializable(plain)).isSameAs(plain);
    }

    @Test
    void aCopyPrintsLikeTheOriginal() {
        IllegalStateException original = new IllegalStateException("disk full");

        assertThat(FailureCopy.of(original)).hasToString(original.toString());
        assertThat(FailureCopy.of(new IllegalStateException()))
                .hasToString(IllegalStateException.class.getName());
    }
}
