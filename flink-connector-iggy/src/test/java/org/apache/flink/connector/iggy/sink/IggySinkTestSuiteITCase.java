package org.apache.flink.connector.iggy.sink;

import org.apache.flink.connector.iggy.sink.testutils.IggySinkExternalContext;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;
import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SinkTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;

import org.junit.jupiter.api.extension.RegisterExtension;

/** Flink's standard sink suite (basic, savepoint restart, rescale, metrics), at-least-once. */
class IggySinkTestSuiteITCase extends SinkTestSuiteBase<String> {

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestContext
    ExternalContextFactory<IggySinkExternalContext> contexts =
            testName -> new IggySinkExternalContext(IGGY);

    @TestSemantics
    CheckpointingMode[] semantics = new CheckpointingMode[] {CheckpointingMode.AT_LEAST_ONCE};
}
