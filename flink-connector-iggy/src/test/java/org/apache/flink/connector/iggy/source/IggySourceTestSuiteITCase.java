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
package org.apache.flink.connector.iggy.source;

import org.apache.flink.connector.iggy.source.testutils.IggySourceExternalContext;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SourceTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;

import org.junit.jupiter.api.extension.RegisterExtension;

/** Flink's source test suite (savepoints, rescaling, idle readers, metrics, TM failure). */
class IggySourceTestSuiteITCase extends SourceTestSuiteBase<String> {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestContext
    ExternalContextFactory<IggySourceExternalContext> iggy =
            testName -> new IggySourceExternalContext(IGGY);

    @TestSemantics
    CheckpointingMode[] semantics = new CheckpointingMode[] {CheckpointingMode.EXACTLY_ONCE};
}
