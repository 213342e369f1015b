package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** HTTP Basic authentication: without valid credentials nothing is read or written (401). */
public final class BasicAuthHandler implements HttpHandler {
    private static final String REALM = "Basic realm=\"Cairn xAPI\"";

    private final Authenticator authenticator;
    private final HttpHandler next;

    public BasicAuthHandler(Authenticator authenticator, HttpHandler next) {
        this.authenticator = authenticator;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String header = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        Optional<Principal> principal = Optional.empty();
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                if (colon > 0) {
                    principal = authenticator.authenticate(decoded.substring(0, colon), decoded.substring(colon + 1));
                }
            } catch (IllegalArgumentException e) {
                principal = Optional.empty();
            }
        }
        if (principal.isEmpty()) {
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, REALM);
            Responses.error(exchange, 401, "auth.required", "header Authorization", header == null
                    ? "authentication is required: send HTTP Basic credentials"
                    : "the credentials are not valid");
            return;
        }
        exchange.putAttachment(Exchanges.PRINCIPAL, principal.get());
        next.handleRequest(exchange);
    }
}
