package org.apache.flink.connector.iggy.testutils.server;

import java.util.concurrent.CountDownLatch;

/**
 * Runs {@link EmbeddedIggyServer} standalone until the process is killed.
 *
 * <p>Usage: {@code EmbeddedIggyServerMain [--host 127.0.0.1] [--port 8090] [--deduplication]}.
 * Prints one line with the address once it listens.
 */
public final class EmbeddedIggyServerMain {
    static final int DEFAULT_PORT = 8090;

    private EmbeddedIggyServerMain() {}

    public static void main(String[] args) throws Exception {
        EmbeddedIggyServer.Config.Builder config =
                EmbeddedIggyServer.Config.builder().port(DEFAULT_PORT);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port":
                    config.port(Integer.parseInt(valueOf(args, ++i, "--port")));
                    break;
                case "--host":
                    config.host(valueOf(args, ++i, "--host"));
                    break;
                case "--deduplication":
                    config.deduplicationEnabled();
                    break;
                default:
                    System.err.println(
                            "Usage: EmbeddedIggyServerMain [--host HOST] [--port PORT]"
                                    + " [--deduplication]");
                    System.exit(2);
            }
        }
        EmbeddedIggyServer server = EmbeddedIggyServer.start(config.build());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "iggy-embedded-shutdown"));
        System.out.println("Embedded Iggy server listening on " + server.address());
        System.out.flush();
        new CountDownLatch(1).await(); // until the process is killed
    }

    private static String valueOf(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }
}
