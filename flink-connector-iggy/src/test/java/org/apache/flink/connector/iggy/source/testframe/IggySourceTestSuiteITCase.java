package org.apache.flink.connector.iggy.source.testframe;

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
