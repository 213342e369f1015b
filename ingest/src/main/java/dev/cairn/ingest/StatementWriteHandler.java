package dev.cairn.ingest;

import dev.cairn.http.Exchanges;
import dev.cairn.http.Principal;
import dev.cairn.http.Responses;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Values;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * PUT and POST on /statements. The body is received without blocking an I/O thread, parsed and validated on a
 * worker, published to the ring, and answered when the sequencer's decision is durable ({@code ack=durable}) or
 * also visible to queries ({@code ack=visible}, the default).
 */
public final class StatementWriteHandler implements HttpHandler {
    private final CommandSubmitter submitter;
    private final long maxBodyBytes;

    public StatementWriteHandler(CommandSubmitter submitter, long maxBodyBytes) {
        this.submitter = submitter;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        boolean put = exchange.getRequestMethod().equals(Methods.PUT);
        UUID putId;
        AckMode ack;
        try {
            putId = checkParameters(exchange, put);
            ack = submitter.ackMode(exchange);
            checkContentType(exchange);
        } catch (XapiException e) {
            Responses.badRequest(exchange, e);
            return;
        }
        CommandSubmitter.receiveBody(exchange, maxBodyBytes, body -> write(exchange, body, putId, ack));
    }

    /** Runs on a worker thread: parse, validate, publish, and answer when the sequencer has decided. */
    private void write(HttpServerExchange exchange, byte[] body, UUID putId, AckMode ack) {
        XapiVersion version = Exchanges.version(exchange);
        Principal principal = Exchanges.principal(exchange);
        List<ParsedStatement> statements;
        try {
            statements = putId != null ? List.of(StatementParser.parseOne(body, version))
                    : StatementParser.parseBatch(body, version);
            checkIds(statements, putId);
        } catch (XapiException e) {
            Responses.badRequest(exchange, e);
            return;
        }
        CompletableFuture<WriteOutcome> outcome = new CompletableFuture<>();
        WriteCommand command = new WriteCommand.Statements(statements, putId, principal.authority(), version, outcome);
        submitter.submit(exchange, command, ack, accepted -> respond(exchange, accepted, putId != null));
    }

    private static void respond(HttpServerExchange exchange, WriteOutcome.Accepted accepted, boolean put) {
        if (put) {
            Responses.noContent(exchange);
            return;
        }
        StringBuilder b = new StringBuilder(2 + accepted.ids().size() * 39);
        b.append('[');
        for (int i = 0; i < accepted.ids().size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('"').append(accepted.ids().get(i)).append('"');
        }
        b.append(']');
        Responses.json(exchange, 200, b.toString().getBytes(StandardCharsets.US_ASCII));
    }

    private static UUID checkParameters(HttpServerExchange exchange, boolean put) {
        Map<String, Deque<String>> params = exchange.getQueryParameters();
        for (String name : params.keySet()) {
            if (!(put && name.equals("statementId"))) {
                throw new XapiException("parameter " + name, "parameter.unknown", "parameter '" + name
                        + "' is not allowed on " + (put ? "PUT" : "POST") + " /statements"
                        + (put ? "; only statementId is" : ""));
            }
        }
        if (!put) {
            return null;
        }
        Deque<String> id = params.get("statementId");
        if (id == null) {
            throw new XapiException("parameter statementId", "parameter.missing",
                    "PUT /statements needs the statementId parameter");
        }
        if (id.size() > 1) {
            throw new XapiException("parameter statementId", "parameter.repeated", "statementId is given more than once");
        }
        return Values.uuid(id.getFirst(), "parameter statementId");
    }

    private static void checkContentType(HttpServerExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (type == null || !type.regionMatches(true, 0, "application/json", 0, 16)) {
            throw new XapiException("header Content-Type", "content_type.unsupported",
                    "statements must be sent as application/json (got " + (type == null ? "no Content-Type" : "'" + type + "'") + ")");
        }
    }

    private static void checkIds(List<ParsedStatement> statements, UUID putId) {
        if (putId != null) {
            UUID bodyId = statements.get(0).statement().id();
            if (bodyId != null && !bodyId.equals(putId)) {
                throw new XapiException("$.id", "statement.id_mismatch", "the statement's id " + bodyId
                        + " differs from the statementId parameter " + putId);
            }
            return;
        }
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < statements.size(); i++) {
            UUID id = statements.get(i).statement().id();
            if (id != null && !seen.add(id)) {
                throw new XapiException("$[" + i + "].id", "batch.duplicate_id", "statement id " + id
                        + " appears more than once in this batch");
            }
        }
    }
}
