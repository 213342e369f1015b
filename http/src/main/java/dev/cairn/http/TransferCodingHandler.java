package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.Locale;

/**
 * Refuses a request whose body framing Cairn does not read, before anything reads it (RFC 9112 6.1, 6.3): the
 * only transfer coding is {@code chunked}, alone. Undertow would read any other value as chunked, and
 * {@code identity} until the client closes the connection. Chunked not last, or in HTTP/1.0, leaves the body's
 * length unknown: 400. Chunked after another coding (gzip, ...): 501. Both close the connection after the answer,
 * since the rest of the request cannot be told from the next one. (Undertow itself refuses, with a bare 400, a
 * request with both Transfer-Encoding and Content-Length or either twice.) A chunked body is decoded strictly
 * ({@link StrictChunkedSource}, in place of Undertow's decoder), and its reader answers a malformed one with 400.
 */
public final class TransferCodingHandler implements HttpHandler {
    private final HttpHandler next;

    public TransferCodingHandler(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String value = exchange.getRequestHeaders().getFirst(Headers.TRANSFER_ENCODING);
        if (value == null) {
            next.handleRequest(exchange);
            return;
        }
        String[] list = value.split(",", -1);
        String last = list[list.length - 1].trim().toLowerCase(Locale.ROOT);
        if (!last.equals("chunked")) {
            refuse(exchange, 400, "request.framing", "Transfer-Encoding '" + value + "' does not end with chunked, "
                    + "so the body's length is unknown; send chunked or a Content-Length");
        } else if (!exchange.isHttp11()) {
            refuse(exchange, 400, "request.framing", "Transfer-Encoding needs HTTP/1.1");
        } else if (list.length > 1) {
            refuse(exchange, 501, "transfer_coding.unsupported", "Cairn reads only the chunked transfer coding, "
                    + "not '" + value + "'; send the body chunked or with a Content-Length");
        } else {
            StrictChunkedSource.install(exchange);
            next.handleRequest(exchange);
        }
    }

    private static void refuse(HttpServerExchange exchange, int status, String code, String message) {
        exchange.setPersistent(false);
        Responses.error(exchange, status, code, "header Transfer-Encoding", message);
    }
}
