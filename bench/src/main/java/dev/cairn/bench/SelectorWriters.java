package dev.cairn.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Closed-loop writers of POSTs on keep-alive connections, all driven by one thread through a selector: each connection
 * sends its next body when its last one is answered. A blocking client needs a thread per connection, and on this
 * 2-core machine, which the load generator shares with the server, 64 threads each woken for every answer (a poll, a
 * context switch) cost about as much CPU per request as the server's own parsing and logging; here the answers that
 * arrive together are read in one pass. Every answer must be a 200 with a Content-Length body (what POST
 * /statements returns); one that does not come within the timeout is counted as lost and its connection is opened
 * again.
 */
final class SelectorWriters {
    /** What a run counted in its measured window. */
    record Counts(long requests, Latencies latencies, long lost) {
    }

    private final int port;
    private final byte[] head;
    private final Supplier<byte[]> bodies;
    private final long timeoutNanos;

    /**
     * @param path         where each body is POSTed
     * @param extraHeaders complete header lines, each ending in CRLF (or empty)
     * @param bodies       the next request's JSON body; called on the run's thread only
     */
    SelectorWriters(int port, String credential, String path, String extraHeaders, Supplier<byte[]> bodies,
                    long timeoutMillis) {
        this.port = port;
        this.bodies = bodies;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nX-Experience-API-Version: 2.0.0\r\n"
                + LoopbackClient.authorization(credential) + extraHeaders
                + "Content-Type: application/json\r\nContent-Length: ")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** One connection: the request being sent, then the answer being read. */
    private final class Connection {
        SocketChannel channel;
        SelectionKey key;
        ByteBuffer out = ByteBuffer.allocateDirect(4096);
        final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
        long sentNanos;

        void open(Selector selector) throws IOException {
            channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(new InetSocketAddress("127.0.0.1", port));
            channel.configureBlocking(false);
            key = channel.register(selector, 0, this);
        }

        void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // a connection given up: nothing left to release
            }
        }

        void send(long now) throws IOException {
            byte[] body = bodies.get();
            byte[] length = (body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            int size = head.length + length.length + body.length;
            if (out.capacity() < size) {
                out = ByteBuffer.allocateDirect(Integer.highestOneBit(size) << 1);
            }
            out.clear();
            out.put(head).put(length).put(body).flip();
            in.clear();
            sentNanos = now;
            channel.write(out);
            key.interestOps(out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        void writeMore() throws IOException {
            channel.write(out);
            if (!out.hasRemaining()) {
                key.interestOps(SelectionKey.OP_READ);
            }
        }

        /** Reads what arrived; true once the whole answer is in. */
        boolean read() throws IOException {
            if (channel.read(in) < 0) {
                throw new IOException("the server closed a connection mid-answer");
            }
            int end = headEnd();
            if (end < 0) {
                if (!in.hasRemaining()) {
                    throw new IOException("an answer's head is longer than " + in.capacity() + " bytes");
                }
                return false;
            }
            String headText = ascii(0, end);
            int status = Integer.parseInt(headText.substring(9, 12));
            int length = contentLength(headText);
            if (in.position() < end + 4 + length) {
                if (end + 4 + length > in.capacity()) {
                    throw new IOException("an answer of " + length + " bytes is larger than the client reads");
                }
                return false;
            }
            if (status != 200) {
                throw new IllegalStateException("a POST got " + status + ": " + ascii(end + 4, end + 4 + length));
            }
            if (in.position() > end + 4 + length) {
                throw new IOException("the server sent more than one answer to a request");
            }
            return true;
        }

        /** Where the blank line after the head starts, or -1. */
        private int headEnd() {
            for (int i = 3; i < in.position(); i++) {
                if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                    return i - 3;
                }
            }
            return -1;
        }

        private String ascii(int from, int to) {
            byte[] b = new byte[to - from];
            in.get(from, b);
            return new String(b, StandardCharsets.ISO_8859_1);
        }
    }

    private static int contentLength(String head) throws IOException {
        String length = RawHttp.header(head.lines().toList(), "Content-Length");
        if (length == null) {
            throw new IOException("an answer has no Content-Length: " + head.lines().findFirst().orElse(""));
        }
        return Integer.parseInt(length);
    }

    /**
     * Runs {@code connections} writers from {@code startNanos} until {@code endNanos}, counting the answers to requests
     * sent from {@code measureFromNanos} on and answered by {@code endNanos}, each as {@code perRequest} statements; then
     * waits for the answers still due (at most the timeout).
     */
    Counts run(int connections, long startNanos, long measureFromNanos, long endNanos, int perRequest)
            throws InterruptedException {
        Latencies latencies = new Latencies();
        long counted = 0;
        long lost = 0;
        try (Selector selector = Selector.open()) {
            List<Connection> all = new ArrayList<>(connections);
            try {
                for (int i = 0; i < connections; i++) {
                    Connection c = new Connection();
                    c.open(selector);
                    all.add(c);
                }
                long wait = (startNanos - System.nanoTime()) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                int busy = 0;
                for (Connection c : all) {
                    c.send(System.nanoTime());
                    busy++;
                }
                long nextTimeoutCheck = System.nanoTime() + 100_000_000L;
                while (busy > 0) {
                    selector.select(100);
                    long now = System.nanoTime();
                    for (SelectionKey k : selector.selectedKeys()) {
                        Connection c = (Connection) k.attachment();
                        if (k.isWritable()) {
                            c.writeMore();
                        } else if (k.isReadable() && c.read()) {
                            if (c.sentNanos >= measureFromNanos && now <= endNanos) {
                                latencies.add(now - c.sentNanos);
                                counted += perRequest;
                            }
                            if (now < endNanos) {
                                c.send(now);
                            } else {
                                c.key.interestOps(0);
                                busy--;
                            }
                        }
                    }
                    selector.selectedKeys().clear();
                    if (now >= nextTimeoutCheck) {
                        nextTimeoutCheck = now + 100_000_000L;
                        for (Connection c : all) {
                            if (c.key.interestOps() != 0 && now - c.sentNanos > timeoutNanos) {
                                lost++; // no answer: a new connection goes on
                                c.close();
                                c.open(selector);
                                if (now < endNanos) {
                                    c.send(now);
                                } else {
                                    busy--;
                                }
                            }
                        }
                    }
                }
            } finally {
                all.forEach(Connection::close);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the writers' connections failed: " + e.getMessage(), e);
        }
        return new Counts(counted, latencies, lost);
    }
}
