package dev.cairn.query;

import dev.cairn.http.Responses;
import dev.cairn.store.StoredAttachment;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * The multipart/mixed response of {@code attachments=true} (Comm 2.1.3, Comm 1.5.2): the statement or
 * StatementResult as the first part (application/json), then each attachment once, with its Content-Type,
 * {@code Content-Transfer-Encoding: binary} and {@code X-Experience-API-Hash}.
 */
final class MultipartResponse {
    private static final byte[] CRLF = {'\r', '\n'};

    private MultipartResponse() {
    }

    static void send(HttpServerExchange exchange, byte[] json, List<StoredAttachment> attachments) {
        // A random boundary: the chance that it occurs inside a part is negligible.
        String boundary = UUID.randomUUID().toString().replace("-", "");
        int size = json.length + 256;
        for (StoredAttachment a : attachments) {
            size += a.content().length + 256;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        part(out, boundary, "Content-Type: application/json\r\n");
        out.writeBytes(json);
        out.writeBytes(CRLF);
        for (StoredAttachment a : attachments) {
            part(out, boundary, "Content-Type: " + a.contentType() + "\r\nContent-Transfer-Encoding: binary\r\n"
                    + "X-Experience-API-Hash: " + a.sha2() + "\r\n");
            out.writeBytes(a.content());
            out.writeBytes(CRLF);
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "multipart/mixed; boundary=" + boundary);
        Responses.send(exchange, out.toByteArray());
    }

    private static void part(ByteArrayOutputStream out, String boundary, String headers) {
        out.writeBytes(("--" + boundary + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.UTF_8));
    }
}
