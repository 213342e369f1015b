package dev.cairn.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request sent byte for byte as given, for what {@link java.net.http.HttpClient} refuses to send: the
 * unencoded query strings some clients write, malformed request lines. Reads one response (by Content-Length).
 */
final class RawHttp {
    record Response(int status, String head, String body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    private RawHttp() {
    }

    static Response send(int port, String requestLineAndHeaders, byte[] body) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            String head = requestLineAndHeaders + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + (body.length > 0 ? "Content-Length: " + body.length + "\r\n" : "") + "\r\n";
            s.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write(body);
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                got.write(buf, 0, n);
            }
            String all = got.toString(StandardCharsets.UTF_8);
            int end = all.indexOf("\r\n\r\n");
            String responseHead = all.substring(0, end);
            int status = Integer.parseInt(responseHead.substring(9, 12));
            String rest = all.substring(end + 4);
            Response r = new Response(status, responseHead, rest);
            String length = r.header("Content-Length");
            if (length != null) {
                byte[] bytes = rest.getBytes(StandardCharsets.UTF_8);
                int n = Integer.parseInt(length.toLowerCase(Locale.ROOT));
                return new Response(status, responseHead, new String(bytes, 0, Math.min(n, bytes.length),
                        StandardCharsets.UTF_8));
            }
            return r;
        }
    }
}
