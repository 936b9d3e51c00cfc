package org.apache.flink.connector.iggy.testutils.server;

/**
 * A command failed with an Iggy error code; the connection answers {@code status=code, length=0}.
 *
 * <p>Thrown on ordinary paths such as "stream not found", so it carries no stack trace: it is
 * control flow, not a bug report.
 */
final class CommandException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;

    CommandException(int code, String reason) {
        super(reason, null, false, false);
        this.code = code;
    }

    static CommandException of(int code, String reason) {
        return new CommandException(code, reason);
    }

    int code() {
        return code;
    }

    @Override
    public String toString() {
        return "error " + code + ": " + getMessage();
    }
}
