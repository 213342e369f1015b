package dev.cairn.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One request written byte for byte on its own connection, for what the JDK's HttpClient refuses to send (CONNECT,
 * lower-case methods, malformed headers), and its response read to the end of the connection.
 */
final class RawHttpRequest {
    record Response(int status, String head, String body) {
        /** The value of the first header {@code name} (case-insensitive), or null. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    private RawHttpRequest() {
    }

    /**
     * Sends {@code requestLine}, the {@code headers} (each ending in CRLF), {@code Connection: close} and {@code body}.
     */
    static Response send(int port, String requestLine, String headers, String body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            String request = requestLine + "\r\nHost: 127.0.0.1:" + port + "\r\n" + headers + "Connection: close\r\n\r\n" + body;
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
            String text = out.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/1.1 ") || end < 0) {
                throw new IOException("not an HTTP response: '" + text + "'");
            }
            return new Response(Integer.parseInt(text.substring(9, 12)), text.substring(0, end), text.substring(end + 4));
        }
    }
}
