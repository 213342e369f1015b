package dev.cairn.ops;

import dev.cairn.forward.TargetsHandler;
import dev.cairn.http.AllowedMethods;
import dev.cairn.http.AlternateSyntaxHandler;
import dev.cairn.http.BasicAuthHandler;
import dev.cairn.http.BodyBudget;
import dev.cairn.http.BodyDeadlineHandler;
import dev.cairn.http.ConsistentThroughHandler;
import dev.cairn.http.CorsHandler;
import dev.cairn.http.CorsPolicy;
import dev.cairn.http.CredentialCheck;
import dev.cairn.http.ErrorPolicy;
import dev.cairn.http.Responses;
import dev.cairn.http.Scope;
import dev.cairn.http.ScopeHandler;
import dev.cairn.http.TransferCodingHandler;
import dev.cairn.http.VersionHandler;
import dev.cairn.query.AboutHandler;
import dev.cairn.query.ExportHandler;
import dev.cairn.query.StatementQueryHandler;
import dev.cairn.store.Database;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.PathHandler;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The HTTP API as one visible chain: {@code /xapi/about} is open; every other resource is
 * {@code alternateSyntax(allowedMethods(auth(version(byMethod(scope(reads), scope(writes))))))}, and the
 * Statement resource is also wrapped in {@code consistentThrough(...)} so that every response of it, errors
 * included, carries the header. {@code alternateSyntax(...)} turns a 1.0.3 Alternate Request Syntax POST into the
 * request it stands for before anything reads its method or headers; {@code allowedMethods(...)} then answers
 * 405 to a method the resource does not have (about, metrics and health have GET and HEAD), before
 * authentication.
 */
final class HttpApi {
    /** The handlers of the write side (ingest): statements and each document resource. */
    record Writes(HttpHandler statements, Map<DocumentKey.Kind, HttpHandler> documents) {
    }

    /** The handlers of the read side (query), and the administrative API's export. */
    record Reads(HttpHandler statements, Map<DocumentKey.Kind, HttpHandler> documents, HttpHandler activities,
                 HttpHandler agents, HttpHandler export) {
    }

    // The scopes each kind of request accepts (xAPI 1.0.3 Communication 4.2); "all" grants everything.
    private static final List<Scope> READ_STATEMENTS = List.of(Scope.STATEMENTS_READ, Scope.STATEMENTS_READ_MINE,
            Scope.ALL_READ, Scope.ALL);
    private static final List<Scope> WRITE_STATEMENTS = List.of(Scope.STATEMENTS_WRITE, Scope.ALL);
    /** The methods of a resource that only reads. */
    private static final List<String> READS = List.of("GET", "HEAD");
    private static final List<Scope> READ_DEFINITIONS = List.of(Scope.DEFINE, Scope.PROFILE, Scope.ALL_READ, Scope.ALL);

    private HttpApi() {
    }

    private static HttpHandler scoped(List<Scope> accepted, HttpHandler handler) {
        return new ScopeHandler(accepted, handler);
    }

    /**
     * @param writes the write side, or null in a process that only reads
     * @param reads  the read side, or null in a process that only writes
     */
    static HttpHandler build(CredentialCheck auth, XapiVersion fallbackVersion, LongSupplier consistentThrough,
                             long maxBodyBytes, BodyBudget unauthenticated, Writes writeSide, Reads readSide,
                             HttpHandler forwardingAdmin, HttpHandler erasureAdmin, Operator operator, CorsPolicy cors,
                             long bodyTimeoutMillis) {
        Writes writes = writeSide != null ? writeSide : elsewhereWrites();
        Reads reads = readSide != null ? readSide : elsewhereReads();
        HttpHandler statementReads = scoped(READ_STATEMENTS, reads.statements());
        HttpHandler statementWrites = scoped(WRITE_STATEMENTS, writes.statements());
        HttpHandler statementRoute = guarded(auth, fallbackVersion, exchange -> byMethod(exchange, statementReads, statementWrites));
        HttpHandler statements = new ConsistentThroughHandler(consistentThrough, new AlternateSyntaxHandler(maxBodyBytes,
                unauthenticated, auth, new AllowedMethods(List.of("GET", "HEAD", "PUT", "POST"), statementRoute)));
        HttpHandler more = new ConsistentThroughHandler(consistentThrough, new AlternateSyntaxHandler(maxBodyBytes,
                unauthenticated, auth, new AllowedMethods(READS, statementRoute)));
        PathHandler paths = operatorPaths(operator);
        paths.addExactPath("/xapi/about", new AllowedMethods(READS, new AboutHandler()))
                .addExactPath("/xapi/statements", statements)
                .addPrefixPath(StatementQueryHandler.MORE_PREFIX, more)
                .addExactPath("/xapi/activities", readOnly(auth, fallbackVersion, maxBodyBytes, unauthenticated,
                        scoped(READ_DEFINITIONS, reads.activities())))
                .addExactPath("/xapi/agents", readOnly(auth, fallbackVersion, maxBodyBytes, unauthenticated,
                        scoped(READ_DEFINITIONS, reads.agents())))
                // not xAPI: no version header needed, and only the admin scope, which "all" does not grant
                .addExactPath(ExportHandler.PATH, new AllowedMethods(List.of("GET"), new BasicAuthHandler(auth,
                        scoped(List.of(Scope.ADMIN), reads.export()))));
        // Forwarding targets and their dead letters (TargetsHandler answers 405 per sub-resource itself).
        HttpHandler targets = new AllowedMethods(List.of("GET", "POST", "DELETE"), new BasicAuthHandler(auth,
                scoped(List.of(Scope.ADMIN), forwardingAdmin)));
        paths.addPrefixPath(TargetsHandler.TARGETS, targets).addPrefixPath(TargetsHandler.DEAD_LETTERS, targets)
                .addExactPath(ErasuresHandler.PATH, new AllowedMethods(List.of("GET", "POST"), new BasicAuthHandler(auth,
                        scoped(List.of(Scope.ADMIN), erasureAdmin))));
        String[][] documentPaths = {{"/xapi/activities/state", "STATE"}, {"/xapi/activities/profile", "ACTIVITY_PROFILE"},
                {"/xapi/agents/profile", "AGENT_PROFILE"}};
        for (String[] d : documentPaths) {
            DocumentKey.Kind kind = DocumentKey.Kind.valueOf(d[1]);
            Scope own = kind == DocumentKey.Kind.STATE ? Scope.STATE : Scope.PROFILE;
            HttpHandler read = scoped(List.of(own, Scope.ALL_READ, Scope.ALL), reads.documents().get(kind));
            HttpHandler write = scoped(List.of(own, Scope.ALL), writes.documents().get(kind));
            paths.addExactPath(d[0], new AlternateSyntaxHandler(maxBodyBytes, unauthenticated, auth, new AllowedMethods(
                    List.of("GET", "HEAD", "PUT", "POST", "DELETE"),
                    guarded(auth, fallbackVersion, exchange -> byMethod(exchange, read, write)))));
        }
        return edge(operator, fallbackVersion, cors, bodyTimeoutMillis, paths);
    }

    /**
     * What every request meets first, whatever its path: timing, the one error policy (so every refusal is JSON,
     * every exception is answered in one place, a database that cannot answer with 503, and every response names
     * an xAPI version), then CORS (before authentication, so preflights need no credential and errors carry the allow headers),
     * then the body's framing and deadline (before anything reads a body).
     */
    private static HttpHandler edge(Operator operator, XapiVersion fallbackVersion, CorsPolicy cors,
                                    long bodyTimeoutMillis, HttpHandler paths) {
        return new HttpMetricsHandler(operator.registry(), new ErrorPolicy(fallbackVersion, Database::unavailable,
                new CorsHandler(cors, new TransferCodingHandler(new BodyDeadlineHandler(bodyTimeoutMillis, paths)))));
    }

    /** The operator's endpoints: metrics and health, served by every process. */
    record Operator(io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry, Health health) {
    }

    /** A handler tree with only the operator's endpoints (the projector process serves just these). */
    static HttpHandler operatorOnly(Operator operator, XapiVersion fallbackVersion, CorsPolicy cors,
                                    long bodyTimeoutMillis) {
        return edge(operator, fallbackVersion, cors, bodyTimeoutMillis, operatorPaths(operator));
    }

    private static PathHandler operatorPaths(Operator operator) {
        return new PathHandler(exchange -> Responses.error(exchange, 404, "resource.unknown", "path "
                + exchange.getRequestPath(), "no resource at " + exchange.getRequestPath()))
                .addExactPath("/metrics", new AllowedMethods(READS, Health.metrics(operator.registry())))
                .addExactPath("/health/live", new AllowedMethods(READS, operator.health().live()))
                .addExactPath("/health/ready", new AllowedMethods(READS, operator.health().ready()));
    }

    private static Writes elsewhereWrites() {
        HttpHandler elsewhere = elsewhere("writes", "ingest");
        return new Writes(elsewhere, everyDocument(elsewhere));
    }

    private static Reads elsewhereReads() {
        HttpHandler elsewhere = elsewhere("reads", "query");
        return new Reads(elsewhere, everyDocument(elsewhere), elsewhere, elsewhere, elsewhere);
    }

    private static Map<DocumentKey.Kind, HttpHandler> everyDocument(HttpHandler handler) {
        Map<DocumentKey.Kind, HttpHandler> out = new EnumMap<>(DocumentKey.Kind.class);
        for (DocumentKey.Kind kind : DocumentKey.Kind.values()) {
            out.put(kind, handler);
        }
        return out;
    }

    /** The answer of a split process to requests that belong to another one. */
    private static HttpHandler elsewhere(String what, String process) {
        return exchange -> Responses.error(exchange, 405, "process.role", "method " + exchange.getRequestMethod(),
                "this Cairn process does not serve " + what + "; send them to the cairn " + process + " process");
    }

    private static HttpHandler guarded(CredentialCheck auth, XapiVersion fallbackVersion, HttpHandler route) {
        return new BasicAuthHandler(auth, new VersionHandler(fallbackVersion, route));
    }

    /** A resource that only reads: GET and HEAD (or a 1.0.3 Alternate Request Syntax POST standing for one). */
    private static HttpHandler readOnly(CredentialCheck auth, XapiVersion fallbackVersion, long maxBodyBytes,
                                        BodyBudget unauthenticated, HttpHandler read) {
        return new AlternateSyntaxHandler(maxBodyBytes, unauthenticated, auth,
                new AllowedMethods(READS, guarded(auth, fallbackVersion, read)));
    }

    /** GET and HEAD go to the read side, the other methods (which {@link AllowedMethods} let through) to the write side. */
    private static void byMethod(HttpServerExchange exchange, HttpHandler read, HttpHandler write) throws Exception {
        String m = exchange.getRequestMethod().toString();
        if (m.equals("GET") || m.equals("HEAD")) {
            read.handleRequest(exchange);
        } else {
            write.handleRequest(exchange);
        }
    }
}
