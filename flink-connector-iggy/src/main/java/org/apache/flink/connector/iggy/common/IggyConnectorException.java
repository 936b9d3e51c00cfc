package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;

/**
 * A failure of the Iggy connector whose message names the thing that is wrong and the fix. Thrown
 * only inside running jobs (never by a builder), so users read its message in the job's failure
 * cause but never catch it by type.
 */
@Internal
public class IggyConnectorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public IggyConnectorException(String message) {
        super(message);
    }

    public IggyConnectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
