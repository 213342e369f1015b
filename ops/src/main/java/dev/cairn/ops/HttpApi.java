package dev.cairn.ops;

import dev.cairn.http.AlternateSyntaxHandler;
import dev.cairn.http.Authenticator;
import dev.cairn.http.BasicAuthHandler;
import dev.cairn.http.ConsistentThroughHandler;
import dev.cairn.http.Responses;
import dev.cairn.http.VersionHandler;
import dev.cairn.query.AboutHandler;
import dev.cairn.query.StatementQueryHandler;
import dev.cairn.xapi.DocumentKey;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.PathHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The HTTP API as one visible chain: {@code /xapi/about} is open; every other resource is
 * {@code auth(version(byMethod(reads, writes)))}, and the Statement resource is also wrapped in
 * {@code consistentThrough(...)} so that every response of it, errors included, carries the header. Each
 * resource but /about first passes {@code alternateSyntax(...)}, which turns a 1.0.3 Alternate Request Syntax
 * POST into the request it stands for before authentication reads its headers.
 */
final class HttpApi {
    /** The handlers of the write side (ingest): statements and each document resource. */
    record Writes(HttpHandler statements, Map<DocumentKey.Kind, HttpHandler> documents) {
    }

    /** The handlers of the read side (query). */
    record Reads(HttpHandler statements, Map<DocumentKey.Kind, HttpHandler> documents, HttpHandler activities,
                 HttpHandler agents) {
    }

    private HttpApi() {
    }

    static HttpHandler build(Authenticator auth, LongSupplier consistentThrough, long maxBodyBytes, Writes writes,
                             Reads reads) {
        HttpHandler statements = new ConsistentThroughHandler(consistentThrough, new AlternateSyntaxHandler(maxBodyBytes,
                guarded(auth, exchange -> {
                    boolean more = exchange.getRequestPath().startsWith(StatementQueryHandler.MORE_PREFIX);
                    byMethod(exchange, reads.statements(), writes.statements(), more ? "GET, HEAD" : "GET, HEAD, PUT, POST");
                })));
        PathHandler paths = new PathHandler(exchange -> Responses.error(exchange, 404, "resource.unknown", "path "
                + exchange.getRequestPath(), "no xAPI resource at " + exchange.getRequestPath()))
                .addExactPath("/xapi/about", new AboutHandler())
                .addExactPath("/xapi/statements", statements)
                .addPrefixPath(StatementQueryHandler.MORE_PREFIX, statements)
                .addExactPath("/xapi/activities", new AlternateSyntaxHandler(maxBodyBytes, readOnly(auth, reads.activities())))
                .addExactPath("/xapi/agents", new AlternateSyntaxHandler(maxBodyBytes, readOnly(auth, reads.agents())));
        String[][] documentPaths = {{"/xapi/activities/state", "STATE"}, {"/xapi/activities/profile", "ACTIVITY_PROFILE"},
                {"/xapi/agents/profile", "AGENT_PROFILE"}};
        for (String[] d : documentPaths) {
            DocumentKey.Kind kind = DocumentKey.Kind.valueOf(d[1]);
            HttpHandler read = reads.documents().get(kind);
            HttpHandler write = writes.documents().get(kind);
            paths.addExactPath(d[0], new AlternateSyntaxHandler(maxBodyBytes,
                    guarded(auth, exchange -> byMethod(exchange, read, write, "GET, HEAD, PUT, POST, DELETE"))));
        }
        return paths;
    }

    private static HttpHandler guarded(Authenticator auth, HttpHandler route) {
        return new BasicAuthHandler(auth, new VersionHandler(route));
    }

    private static HttpHandler readOnly(Authenticator auth, HttpHandler read) {
        return guarded(auth, exchange -> byMethod(exchange, read, null, "GET, HEAD"));
    }

    /** GET and HEAD go to the read side, the other allowed methods to the write side; the rest get 405. */
    private static void byMethod(HttpServerExchange exchange, HttpHandler read, HttpHandler write, String allowed)
            throws Exception {
        HttpString m = exchange.getRequestMethod();
        if (!List.of(allowed.split(", ")).contains(m.toString())) {
            exchange.getResponseHeaders().put(Headers.ALLOW, allowed);
            Responses.error(exchange, 405, "method.not_allowed", "method " + m, m + " is not allowed here; use " + allowed);
        } else if (m.equals(Methods.GET) || m.equals(Methods.HEAD)) {
            read.handleRequest(exchange);
        } else {
            write.handleRequest(exchange);
        }
    }
}
