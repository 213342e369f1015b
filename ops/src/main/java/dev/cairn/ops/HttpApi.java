package dev.cairn.ops;

import dev.cairn.http.Authenticator;
import dev.cairn.http.BasicAuthHandler;
import dev.cairn.http.ConsistentThroughHandler;
import dev.cairn.http.Responses;
import dev.cairn.http.VersionHandler;
import dev.cairn.query.AboutHandler;
import dev.cairn.query.StatementQueryHandler;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.PathHandler;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.util.function.LongSupplier;

/**
 * The HTTP API as one visible chain: {@code /xapi/about} is open; every other route is
 * {@code consistentThrough(auth(version(route)))} on the Statement resource and {@code auth(version(route))}
 * elsewhere.
 */
final class HttpApi {
    private HttpApi() {
    }

    static HttpHandler build(Authenticator auth, LongSupplier consistentThrough, HttpHandler statementWrites,
                             HttpHandler statementReads) {
        HttpHandler statements = new ConsistentThroughHandler(consistentThrough,
                new BasicAuthHandler(auth, new VersionHandler(exchange -> {
                    HttpString m = exchange.getRequestMethod();
                    if (m.equals(Methods.GET) || m.equals(Methods.HEAD)) {
                        statementReads.handleRequest(exchange);
                    } else if (m.equals(Methods.PUT) || m.equals(Methods.POST)) {
                        if (exchange.getRequestPath().startsWith(StatementQueryHandler.MORE_PREFIX)) {
                            methodNotAllowed(exchange, "GET, HEAD");
                        } else {
                            statementWrites.handleRequest(exchange);
                        }
                    } else {
                        methodNotAllowed(exchange, "GET, HEAD, PUT, POST");
                    }
                })));
        return new PathHandler(exchange -> Responses.error(exchange, 404, "resource.unknown", "path "
                + exchange.getRequestPath(), "no xAPI resource at " + exchange.getRequestPath()))
                .addExactPath("/xapi/about", new AboutHandler())
                .addExactPath("/xapi/statements", statements)
                .addPrefixPath(StatementQueryHandler.MORE_PREFIX, statements);
    }

    private static void methodNotAllowed(HttpServerExchange exchange, String allowed) {
        exchange.getResponseHeaders().put(io.undertow.util.Headers.ALLOW, allowed);
        Responses.error(exchange, 405, "method.not_allowed", "method " + exchange.getRequestMethod(),
                exchange.getRequestMethod() + " is not allowed here; use " + allowed);
    }
}
