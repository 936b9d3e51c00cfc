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

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.iggy.common.client.IggyServerClient;
import org.apache.flink.connector.iggy.sink.IggySink;
import org.apache.flink.connector.iggy.source.IggySource;
import org.apache.flink.connector.iggy.source.IggyStartingOffsets;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.iggy.testutils.MiniClusters;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.SerializedThrowable;
import org.apache.flink.util.function.ThrowingRunnable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A job that cannot log in fails with the connector's exception, its type intact and its class
 * named once. Flink hands a job's failure to the client serialized; one that cannot be serialized
 * (the SDK's exceptions hold {@code Optional} fields) arrives as Flink's stand-in, printed as
 * {@code IggyConnectorException: org.apache…IggyConnectorException: Cannot log in …}.
 */
class ConnectionFailureInAJobITCase {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.withSlots(1);

    private static final String CLASS_NAME_TWICE =
            IggyConnectorException.class.getName() + ": " + IggyConnectorException.class.getName();

    private String stream;

    @BeforeEach
    void createTopic() {
        stream = IGGY.uniqueName("job-login");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "t", 1);
    }

    @AfterEach
    void deleteStream() {
        IGGY.deleteStream(stream);
    }

    private static IggyConnectionConfig wrongPassword() {
        return IggyConnectionConfig.builder()
                .setAddress(IGGY.address())
                .setCredentials(IGGY.username(), "not-the-password")
                .setConnectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @Test
    void aLoginFailureCanBeSerializedAndPrintsItsClassOnce() {
        Throwable failure =
                catchThrowable(
                        () -> IggyServerClient.connect(wrongPassword(), new SimpleCounter()));

        Throwable received =
                new SerializedThrowable(failure).deserializeError(getClass().getClassLoader());

        assertThat(received).isInstanceOf(IggyConfigurationException.class);
        assertThat(received.toString())
                .startsWith(IggyConfigurationException.class.getName() + ": Cannot log in to Iggy")
                .doesNotContain(CLASS_NAME_TWICE);
        assertThat(received.getSuppressed())
                .singleElement()
                .asString()
                .startsWith("org.apache.iggy.exception.");
    }

    @Test
    void aSourceJobThatCannotLogInFailsWithTheConnectorsException() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        IggySource<String> source =
                IggySource.<String>builder()
                        .setConnection(wrongPassword())
                        .setStream(stream)
                        .setTopic("t")
                        .setConsumerName("c")
                        .setStartingOffsets(IggyStartingOffsets.earliest())
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build();

        assertFailsWithTheLoginMessageOnce(
                () -> {
                    try (CloseableIterator<String> it =
                            env.fromSource(source, WatermarkStrategy.noWatermarks(), "s")
                                    .executeAndCollect()) {
                        it.forEachRemaining(x -> {});
                    }
                });
    }

    @Test
    void aSinkJobThatCannotLogInFailsWithTheConnectorsException() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromData("a", "b")
                .sinkTo(
                        IggySink.<String>builder()
                                .setConnection(wrongPassword())
                                .setStream(stream)
                                .setTopic("t")
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build());

        assertFailsWithTheLoginMessageOnce(() -> env.execute("wrong password"));
    }

    private static void assertFailsWithTheLoginMessageOnce(ThrowingRunnable<Exception> job) {
        Throwable failure = catchThrowable(job::run);

        assertThat(ExceptionUtils.findThrowable(failure, IggyConnectorException.class))
                .get()
                .extracting(Throwable::getMessage)
                .asString()
                .contains("Cannot log in to Iggy at " + IGGY.address())
                .contains("Check the username and password");
        assertThat(ExceptionUtils.findThrowable(failure, SerializedThrowable.class)).isEmpty();
        assertThat(ExceptionUtils.stringifyException(failure)).doesNotContain(CLASS_NAME_TWICE);
    }
}
