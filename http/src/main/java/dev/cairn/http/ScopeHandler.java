package dev.cairn.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lets a request through only when its credential holds one of the scopes the route accepts (403 otherwise).
 * Runs after {@link BasicAuthHandler}, which attaches the {@link Principal}.
 */
public final class ScopeHandler implements HttpHandler {
    private final List<Scope> accepted;
    private final HttpHandler next;

    public ScopeHandler(List<Scope> accepted, HttpHandler next) {
        this.accepted = accepted;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        Principal principal = Exchanges.principal(exchange);
        for (Scope s : accepted) {
            if (principal.scopes().contains(s.text())) {
                next.handleRequest(exchange);
                return;
            }
        }
        Responses.error(exchange, 403, "auth.scope", "credential " + principal.key(), "this credential may not "
                + exchange.getRequestMethod() + " " + exchange.getRequestPath() + "; it needs one of the scopes "
                + accepted.stream().map(Scope::text).collect(Collectors.joining(", ")));
    }
}
