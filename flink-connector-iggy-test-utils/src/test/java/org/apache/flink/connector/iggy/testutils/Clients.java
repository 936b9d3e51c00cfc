package org.apache.flink.connector.iggy.testutils;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Helpers for the SDK clients tests open themselves. */
final class Clients {
    private Clients() {}

    /**
     * Closes the clients in parallel: each SDK client shuts its event loop down gracefully, which
     * takes about two seconds, so closing several one after another slows tests down for nothing.
     */
    static void closeAll(List<IggyTcpClient> clients) {
        CompletableFuture.allOf(
                        clients.stream()
                                .map(client -> CompletableFuture.runAsync(client::close))
                                .toArray(CompletableFuture[]::new))
                .join();
        clients.clear();
    }
}
