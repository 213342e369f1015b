package dev.cairn.ingest;

import dev.cairn.http.Exchanges;
import dev.cairn.http.Principal;
import dev.cairn.http.QueryParameters;
import dev.cairn.http.Responses;
import dev.cairn.log.AttachmentContent;
import dev.cairn.log.EventCodec;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.MediaTypes;
import dev.cairn.xapi.ParallelBatchParse;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.SignedStatements;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Uuids;
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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * PUT and POST on /statements. The body is received without blocking an I/O thread, parsed and validated (on
 * that I/O thread when it is small, else on a worker: {@link CommandSubmitter#receiveBody}), published to the ring, and answered when the sequencer's decision is durable ({@code ack=durable}) or
 * also visible to queries ({@code ack=visible}, the default). A multipart/mixed body carries the statements in
 * its first part and attachment contents in the others (Comm 1.5.2); signed statements are checked here (Data 2.6),
 * so the sequencer only ever sees statements whose attachments and signatures hold.
 */
public final class StatementWriteHandler implements HttpHandler {
    /** The sequencer's stored timestamp, yyyy-MM-ddTHH:mm:ss.SSSZ, and the version it adds: 2.0.0 or 1.0.0. */
    private static final int STORED_LENGTH = 24;
    private static final int VERSION_LENGTH = 5;

    private static final List<String> PUT_PARAMETERS = List.of("statementId");

    private final CommandSubmitter submitter;
    private final long maxBodyBytes;
    /** Parses the second half of a large batch while the request's own thread parses the first. */
    private final Executor parseHelper;

    public StatementWriteHandler(CommandSubmitter submitter, long maxBodyBytes, Executor parseHelper) {
        this.submitter = submitter;
        this.maxBodyBytes = maxBodyBytes;
        this.parseHelper = parseHelper;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        boolean put = exchange.getRequestMethod().equals(Methods.PUT);
        UUID putId = checkParameters(exchange, put);
        AckMode ack = submitter.ackMode(exchange);
        String boundary = checkContentType(exchange);
        // Only JSON is handled inline: a multipart body's signatures may cost far more to verify than its size says.
        CommandSubmitter.receiveBody(exchange, maxBodyBytes, boundary == null,
                body -> write(exchange, body, boundary, putId, ack));
    }

    /**
     * Parse, validate, publish, and answer when the sequencer has decided. A statement
     * that is not valid throws, and the error policy answers 400.
     */
    private void write(HttpServerExchange exchange, byte[] body, String boundary, UUID putId, AckMode ack) {
        XapiVersion version = Exchanges.version(exchange);
        Principal principal = Exchanges.principal(exchange);
        List<MultipartBody.Part> parts = List.of();
        byte[] json = body;
        if (boundary != null) {
            parts = MultipartBody.parse(body, boundary);
            json = statementsPart(parts);
            parts = parts.subList(1, parts.size());
        }
        List<ParsedStatement> statements = putId != null ? List.of(StatementParser.parseOne(json, version))
                : ParallelBatchParse.parseBatch(json, version, parseHelper);
        checkIds(statements, putId);
        List<AttachmentContent> attachments = AttachmentParts.match(statements, parts);
        checkSignatures(statements, attachments, version);
        if (!submitter.fitsLog(exchange, entryLength(statements, attachments, principal.authority().length),
                "send the statements in smaller batches")) {
            return;
        }
        CompletableFuture<WriteOutcome> outcome = new CompletableFuture<>();
        WriteCommand command = new WriteCommand.Statements(statements, attachments, putId, principal.authority(),
                principal.authorityKey(), principal.defines(), principal.voidsAnyStatement(), version, outcome);
        submitter.submit(exchange, command, ack, accepted -> respond(exchange, accepted, putId != null));
    }

    /** The log entry these statements take once stamped, or more when some are stored already. */
    private static long entryLength(List<ParsedStatement> statements, List<AttachmentContent> attachments,
                                    int authorityLength) {
        long json = 0;
        for (ParsedStatement p : statements) {
            json += ExactWriter.length(p, STORED_LENGTH, authorityLength, VERSION_LENGTH);
        }
        return EventCodec.statementsLength(statements.size(), json, attachments);
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
        QueryParameters.check(params, put ? PUT_PARAMETERS : List.of(), put ? "PUT /statements" : "POST /statements");
        return put ? Uuids.parse(QueryParameters.required(params, "statementId"), "parameter statementId") : null;
    }

    /** Checks the request's Content-Type; returns the multipart boundary, or null for application/json. */
    private static String checkContentType(HttpServerExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (MediaTypes.hasEssence(type, "application/json")) {
            return null;
        }
        if (MediaTypes.hasEssence(type, "multipart/mixed")) {
            return MultipartBody.boundary(type);
        }
        throw new XapiException("header Content-Type", "content_type.unsupported",
                "statements must be sent as application/json, or as multipart/mixed with attachments (got "
                        + (type == null ? "no Content-Type" : "'" + type + "'") + ")");
    }

    /** The first part of a multipart/mixed body: the statements, as application/json (Comm 1.5.2). */
    private static byte[] statementsPart(List<MultipartBody.Part> parts) {
        if (parts.isEmpty()) {
            throw new XapiException("body", "multipart.empty", "the multipart/mixed body has no parts; the first part "
                    + "must hold the statements as application/json");
        }
        String type = parts.get(0).header("content-type");
        if (!MediaTypes.hasEssence(type, "application/json")) {
            throw new XapiException("body part 1", "multipart.first_part", "the first part of a multipart/mixed body "
                    + "must hold the statements with Content-Type application/json (got "
                    + (type == null ? "no Content-Type" : "'" + type + "'") + ")");
        }
        return parts.get(0).content();
    }

    /** Verifies the JWS of every signed statement against the content sent for its signature attachment. */
    private static void checkSignatures(List<ParsedStatement> statements, List<AttachmentContent> attachments,
                                        XapiVersion version) {
        for (int i = 0; i < statements.size(); i++) {
            Attachment signature = SignedStatements.signature(statements.get(i).statement());
            if (signature == null) {
                continue;
            }
            String hash = signature.sha2().toLowerCase(Locale.ROOT);
            byte[] jws = null;
            for (AttachmentContent a : attachments) {
                if (a.sha2().equals(hash)) {
                    jws = a.content();
                }
            }
            // AttachmentParts already required the part of every signature, so jws is present.
            SignedStatements.verify(statements.get(i).statement(), jws, version,
                    statements.size() == 1 ? "$" : "$[" + i + "]");
        }
    }

    /** Refuses a PUT whose statement has another id than statementId, and a batch that repeats an id. */
    static void checkIds(List<ParsedStatement> statements, UUID putId) {
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
