package org.apache.flink.connector.iggy.testutils;

import org.apache.iggy.exception.IggyServerException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Assertions on the errors the SDK raises for server error replies. */
public final class IggyErrors {
    private IggyErrors() {}

    /** The call fails with exactly {@code type} carrying the server's numeric {@code code}. */
    public static void assertServerError(
            ThrowingCallable call, Class<? extends IggyServerException> type, int code) {
        assertThatThrownBy(call)
                .isExactlyInstanceOf(type)
                .satisfies(
                        e ->
                                org.assertj.core.api.Assertions.assertThat(
                                                ((IggyServerException) e).getRawErrorCode())
                                        .as("server error code")
                                        .isEqualTo(code));
    }
}
