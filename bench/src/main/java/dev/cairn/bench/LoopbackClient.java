package dev.cairn.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A minimal blocking HTTP/1.1 client on one keep-alive connection, for one thread. The JDK's HttpClient spends
 * about as much CPU per request as the server does on a small GET, and on a 2-core machine the load generator
 * shares the cores with the server, so a lean client keeps the measurement about the server. Every request carries
 * Basic credentials (the client's own, or others a request names) and {@code X-Experience-API-Version: 2.0.0}.
 */
final class LoopbackClient implements AutoCloseable {
    /** A response: its status, its header lines and its body (de-chunked). */
    record Response(int status, List<String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The first value of a header, or null. */
        String header(String name) {
            return RawHttp.header(headers, name);
        }
    }

    /** A response slower than this is reported as lost (the request failed) instead of blocking the run. */
    static final int TIMEOUT_MILLIS = 10_000;

    private final InetAddress from;
    private final int port;
    private final byte[] fixedHeaders;
    private final String authorization;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    LoopbackClient(int port, String credential) {
        this(null, port, credential);
    }

    /** @param from the local address the client connects from (any of 127/8 on Linux), or null for the default */
    LoopbackClient(InetAddress from, int port, String credential) {
        this.from = from;
        this.port = port;
        this.fixedHeaders = ("Host: 127.0.0.1:" + port + "\r\nX-Experience-API-Version: 2.0.0\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        this.authorization = authorization(credential);
    }

    /** The Authorization header line, CRLF included, of Basic credentials {@code key:secret}. */
    static String authorization(String credential) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.UTF_8))
                + "\r\n";
    }

    Response get(String pathAndQuery) {
        return send("GET", pathAndQuery, null, authorization);
    }

    /** A GET with another credential than the client's own, on the same connection. */
    Response getAs(String credential, String pathAndQuery) {
        return send("GET", pathAndQuery, null, authorization(credential));
    }

    /** POSTs a JSON body; {@code extraHeaders} is empty or complete header lines ending in CRLF. */
    Response post(String path, byte[] json, String extraHeaders) {
        return send("POST", path, json, authorization + extraHeaders);
    }

    /** @param headerLines the request's own header lines (its Authorization among them), each ending in CRLF */
    private Response send(String method, String target, byte[] body, String headerLines) {
        try {
            if (socket == null) {
                connect();
            }
            StringBuilder head = new StringBuilder(128).append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(fixedHeaders);
            StringBuilder rest = new StringBuilder(headerLines);
            if (body != null) {
                rest.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
            }
            rest.append("\r\n");
            out.write(rest.toString().getBytes(StandardCharsets.US_ASCII));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return read();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException(method + " " + target + " failed: " + e.getMessage(), e);
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    }

    private Response read() throws IOException {
        String status = line();
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        List<String> headers = new ArrayList<>();
        String h;
        while (!(h = line()).isEmpty()) {
            headers.add(h);
            int colon = h.indexOf(':');
            String name = h.substring(0, colon).trim();
            String value = h.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.equalsIgnoreCase("chunked");
            } else if (name.equalsIgnoreCase("Connection")) {
                close = value.equalsIgnoreCase("close");
            }
        }
        byte[] body;
        if (chunked) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            int size;
            while ((size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0) {
                buf.write(in.readNBytes(size));
                line();
            }
            while (!line().isEmpty()) {
                // trailers: none expected
            }
            body = buf.toByteArray();
        } else if (length >= 0) {
            body = in.readNBytes((int) length);
        } else {
            body = in.readAllBytes();
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(code, headers, body);
    }

    private String line() throws IOException {
        StringBuilder b = new StringBuilder(64);
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new EOFException("connection closed mid-response");
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket that already failed: nothing left to release
            }
            socket = null;
        }
    }
}
