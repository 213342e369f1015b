package dev.cairn.query;

import dev.cairn.http.Responses;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.nio.charset.StandardCharsets;

/** GET /about (Comm 2.8): the versions Cairn speaks. Needs no authentication and ignores the version header. */
public final class AboutHandler implements HttpHandler {
    private static final byte[] BODY = "{\"version\":[\"1.0.3\",\"2.0.0\"],\"extensions\":{}}"
            .getBytes(StandardCharsets.US_ASCII);

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        Responses.json(exchange, 200, BODY);
    }
}
