package dev.kubeloop.benchmarks.watch;

import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A fabric8 {@link MockWebServer} on loopback that serves prepared lists ({@link ListOnlyDispatcher}),
 * for informers to fill their caches from. Not thread-safe to start and close; serving is.
 */
final class ListServer implements AutoCloseable {

    // the mock web server logs every request at INFO through java.util.logging; held so the level sticks
    private static final Logger MOCK_WEB_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private final MockWebServer server;
    private final ListOnlyDispatcher dispatcher;

    private ListServer(MockWebServer server, ListOnlyDispatcher dispatcher) {
        this.server = server;
        this.dispatcher = dispatcher;
    }

    /** @param collections collection path (e.g. {@code /api/v1/namespaces/bench/secrets}) to its objects */
    static ListServer start(Map<String, PreparedList> collections) {
        MOCK_WEB_SERVER_LOG.setLevel(Level.WARNING);
        ListOnlyDispatcher dispatcher = new ListOnlyDispatcher(collections);
        MockWebServer server = new MockWebServer();
        server.setDispatcher(dispatcher);
        server.start(InetAddress.getLoopbackAddress(), 0);
        return new ListServer(server, dispatcher);
    }

    String url() {
        return server.url("/").toString();
    }

    /** Requests the server could not answer; a benchmark whose informers asked for more is wrong. */
    List<String> unexpected() {
        return dispatcher.unexpected();
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
