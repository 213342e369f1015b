package dev.cairn.http;

import io.undertow.UndertowOptions;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.DefaultByteBufferPool;
import io.undertow.server.HttpHandler;
import io.undertow.server.protocol.http.HttpOpenListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.Xnio;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;

/**
 * The HTTP/1.1 listener, built from Undertow's parts in plain sight (as {@code Undertow.start()} does) so that
 * every connection's output passes through {@link MalformedRequestConduit}: the one answer Undertow writes without
 * a handler, its 400 for a request it cannot parse, then has Cairn's JSON body and headers too.
 */
public final class HttpServer implements AutoCloseable {
    private final XnioWorker worker;
    private final AcceptingChannel<StreamConnection> channel;

    private HttpServer(XnioWorker worker, AcceptingChannel<StreamConnection> channel) {
        this.worker = worker;
        this.channel = channel;
    }

    /**
     * @param serverOptions Undertow's options ({@link UndertowOptions}) for parsing and timeouts
     * @param maxConnections most connections open at once: past it the I/O threads stop accepting (XNIO's high
     *                       water mark, shared among them) until one closes, and new clients wait in the backlog
     * @param writeTimeoutMillis how long a response may wait for its client to take more of it: past it the
     *                       connection is closed and the response let go
     * @param malformedAnswer the response written instead of Undertow's bare 400 ({@link #malformedAnswer})
     */
    public static HttpServer start(String host, int port, HttpHandler root, OptionMap serverOptions,
                                   int maxConnections, int writeTimeoutMillis, byte[] malformedAnswer)
            throws IOException {
        int ioThreads = Math.max(Runtime.getRuntime().availableProcessors(), 2);
        XnioWorker worker = Xnio.getInstance(HttpServer.class.getClassLoader()).createWorker(OptionMap.builder()
                .set(Options.WORKER_IO_THREADS, ioThreads)
                .set(Options.WORKER_TASK_CORE_THREADS, ioThreads * 8)
                .set(Options.WORKER_TASK_MAX_THREADS, ioThreads * 8)
                .set(Options.TCP_NODELAY, true)
                .set(Options.CORK, true)
                .getMap());
        try {
            // Undertow's own defaults for a server with more than 128 MB of heap: pooled 16 KB direct buffers.
            ByteBufferPool buffers = new DefaultByteBufferPool(true, 16 * 1024 - 20, -1, 4);
            HttpOpenListener http = new HttpOpenListener(buffers, OptionMap.builder()
                    .set(UndertowOptions.BUFFER_PIPELINED_DATA, true)
                    .addAll(serverOptions).getMap());
            http.setRootHandler(exchange -> {
                MalformedRequestConduit.answering(exchange);
                root.handleRequest(exchange);
            });
            ChannelListener<StreamConnection> open = connection -> {
                MalformedRequestConduit out =
                        new MalformedRequestConduit(connection.getSinkChannel().getConduit(), malformedAnswer);
                connection.getSinkChannel().setConduit(out);
                connection.getSourceChannel().setConduit(
                        new MalformedRequestConduit.Carrier(connection.getSourceChannel().getConduit(), out));
                http.handleEvent(connection);
            };
            AcceptingChannel<StreamConnection> channel = worker.createStreamConnectionServer(
                    new InetSocketAddress(InetAddress.getByName(host), port), ChannelListeners.openListenerAdapter(open),
                    OptionMap.builder()
                            .set(Options.WORKER_IO_THREADS, ioThreads)
                            .set(Options.TCP_NODELAY, true)
                            .set(Options.REUSE_ADDRESSES, true)
                            .set(Options.BALANCING_TOKENS, 1)
                            .set(Options.BALANCING_CONNECTIONS, 2)
                            .set(Options.BACKLOG, 1000)
                            .set(Options.CONNECTION_HIGH_WATER, maxConnections)
                            .set(Options.CONNECTION_LOW_WATER, maxConnections)
                            // A write that makes no progress for this long closes the connection (Undertow's
                            // WriteTimeoutStreamSinkConduit, above the conduits here): a client that stops reading
                            // cannot hold a response, up to max-page-bytes or max-body of heap, for ever.
                            .set(Options.WRITE_TIMEOUT, writeTimeoutMillis)
                            .getMap());
            channel.resumeAccepts();
            return new HttpServer(worker, channel);
        } catch (IOException | RuntimeException e) {
            worker.shutdownNow();
            throw e;
        }
    }

    /** The answer to a request Undertow cannot parse, with the version header a client without one is told. */
    public static byte[] malformedAnswer(String versionHeader, CorsPolicy cors) {
        return MalformedRequestConduit.answer(versionHeader, cors.anyOrigin());
    }

    public int port() {
        return ((InetSocketAddress) channel.getLocalAddress()).getPort();
    }

    /** Stops accepting, then lets the requests in progress finish for up to a few seconds. */
    @Override
    public void close() {
        IoUtils.safeClose(channel);
        worker.shutdown();
        try {
            if (!worker.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)) {
                worker.shutdownNow();
            }
        } catch (InterruptedException e) {
            worker.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
