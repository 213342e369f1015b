package dev.cairn.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One HTTP/1.1 exchange on its own raw socket, so that a request can carry any bytes at all, and a response is read
 * within a deadline and a byte bound whatever the server does. A request body larger than the socket's buffers is
 * written by another thread while this one reads, so that a server that answers early (413) and stops reading is
 * still heard.
 */
final class RawHttp {
    /** What came back: a status (or -1 with the {@code outcome} that replaced it), headers and the body's start. */
    record Answer(int status, String outcome, List<String> headers, byte[] body, long bodyBytes, long nanos) {
        static final String OK = "answered";
        static final String NO_ANSWER = "no answer";
        static final String CLOSED = "closed without a status line";
        static final String BAD_STATUS = "malformed status line";
        static final String CUT = "closed mid-response";
        static final String BODY_TIMEOUT = "status and headers, then not the whole body within the timeout";

        String header(String name) {
            return RawHttp.header(headers, name);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** The first bytes of a response body kept; the rest is read and counted, not kept. */
    static final int KEPT_BODY = 1 << 20;
    private static final int INLINE_BODY = 1 << 16;
    private static final ExecutorService WRITERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-body-writer");
        t.setDaemon(true);
        return t;
    });

    private RawHttp() {
    }

    /** Sends {@code head} then {@code body} and reads one response (1xx skipped) within {@code timeoutMillis}. */
    /** The value of the first of {@code headers} (lines "Name: value") named {@code name}, or null. */
    static String header(List<String> headers, String name) {
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        for (String h : headers) {
            if (h.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return h.substring(prefix.length()).strip();
            }
        }
        return null;
    }

    static Answer exchange(String host, int port, byte[] head, FuzzRequest.Body body, boolean headMethod,
                           int timeoutMillis) throws IOException {
        return exchange(host, port, head, body, headMethod, timeoutMillis, KEPT_BODY);
    }

    /** As above, keeping up to {@code keptBody} bytes of the answer's body. */
    static Answer exchange(String host, int port, byte[] head, FuzzRequest.Body body, boolean headMethod,
                           int timeoutMillis, int keptBody) throws IOException {
        long start = System.nanoTime();
        long deadline = start + timeoutMillis * 1_000_000L;
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            OutputStream out = socket.getOutputStream();
            Future<?> writer = null;
            try {
                if (body.length() <= INLINE_BODY) {
                    out.write(head);
                    body.writeTo(out);
                    out.flush();
                } else {
                    out.write(head);
                    writer = WRITERS.submit(() -> {
                        body.writeTo(out);
                        out.flush();
                        return null;
                    });
                }
            } catch (IOException e) {
                // the server may have answered and closed already: its answer is still to be read
            }
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            try {
                Answer a = read(socket, in, deadline, headMethod, start, keptBody);
                return a;
            } finally {
                if (writer != null) {
                    writer.cancel(true);
                }
            }
        }
    }

    private static Answer read(Socket socket, InputStream in, long deadline, boolean headMethod, long start,
                               int keptBody)
            throws IOException {
        List<String> headers = new ArrayList<>();
        try {
            while (true) {
                String status = line(socket, in, deadline, true);
                if (status == null) {
                    return new Answer(-1, Answer.CLOSED, headers, new byte[0], 0, System.nanoTime() - start);
                }
                if (!status.matches("HTTP/1\\.[01] [0-9]{3}( .*)?")) {
                    return new Answer(-1, Answer.BAD_STATUS + ": " + status, headers, new byte[0], 0,
                            System.nanoTime() - start);
                }
                int code = Integer.parseInt(status.substring(9, 12));
                headers.clear();
                String h;
                while (!(h = line(socket, in, deadline, false)).isEmpty()) {
                    headers.add(h);
                }
                if (code >= 100 && code < 200) {
                    continue;
                }
                try {
                    Body b = body(socket, in, deadline, headMethod || code == 204 || code == 304, headers, keptBody);
                    return new Answer(code, b.cut ? Answer.CUT : Answer.OK, List.copyOf(headers), b.kept, b.total,
                            System.nanoTime() - start);
                } catch (SocketTimeoutException e) {
                    return new Answer(code, Answer.BODY_TIMEOUT, List.copyOf(headers), new byte[0], 0,
                            System.nanoTime() - start);
                }
            }
        } catch (SocketTimeoutException e) {
            return new Answer(-1, Answer.NO_ANSWER, headers, new byte[0], 0, System.nanoTime() - start);
        } catch (IOException e) {
            return new Answer(-1, Answer.CLOSED + " (" + e.getMessage() + ")", headers, new byte[0], 0,
                    System.nanoTime() - start);
        }
    }

    private record Body(byte[] kept, long total, boolean cut) {
    }

    private static Body body(Socket socket, InputStream in, long deadline, boolean none, List<String> headers,
                             int keptBody)
            throws IOException {
        if (none) {
            return new Body(new byte[0], 0, false);
        }
        long length = -1;
        boolean chunked = false;
        for (String h : headers) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(h.substring(15).strip());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        Sink sink = new Sink(keptBody);
        if (chunked) {
            while (true) {
                String size = line(socket, in, deadline, false);
                long n = Long.parseLong(size.split(";")[0].strip(), 16);
                if (n == 0) {
                    while (!line(socket, in, deadline, false).isEmpty()) {
                        // trailers
                    }
                    return new Body(sink.kept(), sink.total, false);
                }
                if (!copy(socket, in, deadline, n, sink)) {
                    return new Body(sink.kept(), sink.total, true);
                }
                line(socket, in, deadline, false);
            }
        }
        boolean whole = copy(socket, in, deadline, length < 0 ? Long.MAX_VALUE : length, sink);
        return new Body(sink.kept(), sink.total, length >= 0 && !whole);
    }

    /** Reads up to {@code n} bytes into the sink; false when the connection ended first. */
    private static boolean copy(Socket socket, InputStream in, long deadline, long n, Sink sink) throws IOException {
        byte[] buf = new byte[8192];
        long left = n;
        while (left > 0) {
            timeout(socket, deadline);
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                return false;
            }
            sink.add(buf, r);
            left -= r;
        }
        return true;
    }

    /** A CRLF- or LF-ended line; null at end of stream before a first byte when {@code eofIsNull}. */
    private static String line(Socket socket, InputStream in, long deadline, boolean eofIsNull) throws IOException {
        StringBuilder b = new StringBuilder(64);
        while (true) {
            timeout(socket, deadline);
            int c = in.read();
            if (c < 0) {
                if (eofIsNull && b.isEmpty()) {
                    return null;
                }
                throw new IOException("connection closed mid-line");
            }
            if (c == '\n') {
                return b.toString();
            }
            if (c != '\r') {
                if (b.length() > 65536) {
                    throw new IOException("response line over 64 KiB");
                }
                b.append((char) c);
            }
        }
    }

    private static void timeout(Socket socket, long deadline) throws IOException {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
            throw new SocketTimeoutException("deadline");
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
    }

    private static final class Sink {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private final int keep;
        private long total;

        Sink(int keep) {
            this.keep = keep;
        }

        void add(byte[] b, int n) {
            int room = (int) Math.max(0, Math.min(n, keep - kept.size()));
            kept.write(b, 0, room);
            total += n;
        }

        byte[] kept() {
            return kept.toByteArray();
        }
    }
}
