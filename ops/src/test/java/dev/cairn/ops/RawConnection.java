package dev.cairn.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A client connection that sends exactly the bytes a test writes and reads responses byte by byte. */
final class RawConnection implements AutoCloseable {
    /** A response: status, headers (names lowercase) and the body of its Content-Length. */
    record Response(int status, Map<String, String> headers, String body) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    RawConnection send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawConnection send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** The next response, or null when none starts within {@code millis}. */
    Response read(int millis) throws IOException {
        socket.setSoTimeout(millis);
        String statusLine;
        try {
            statusLine = line();
        } catch (SocketTimeoutException e) {
            return null;
        }
        if (statusLine == null) {
            throw new IOException("the connection closed without a response");
        }
        socket.setSoTimeout(10_000);
        Map<String, String> headers = new TreeMap<>();
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    /** Whether the server closes the connection within {@code millis} (bytes it sends before are skipped). */
    boolean closedWithin(int millis) throws IOException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            socket.setSoTimeout((int) left);
            try {
                if (in.read() < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) { // reset
                return true;
            }
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
