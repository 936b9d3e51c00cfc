package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.PublicEvolving;

/** A failure of the Iggy connector whose message names the thing that is wrong and the fix. */
@PublicEvolving
public class IggyConnectorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public IggyConnectorException(String message) {
        super(message);
    }

    public IggyConnectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
