package dev.cairn.ingest;

import dev.cairn.http.DocumentParams;
import dev.cairn.http.Exchanges;
import dev.cairn.http.Responses;
import dev.cairn.log.DocumentWritten;
import dev.cairn.log.EventCodec;
import dev.cairn.xapi.DocumentKey;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.util.concurrent.CompletableFuture;

/**
 * PUT, POST and DELETE on a document resource (State, Activity Profile, Agent Profile). Preconditions, the
 * conflict rule and POST merges are decided by the sequencer against the current document, so concurrent writers
 * never lose an update and the log carries the final document.
 */
public final class DocumentWriteHandler implements HttpHandler {
    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";
    /** Stands for the document's ETag, a SHA-1 in hex, when measuring its log entry before it is decided. */
    private static final String SHA1_HEX = "0".repeat(40);

    private final DocumentKey.Kind kind;
    private final CommandSubmitter submitter;
    private final long maxBodyBytes;

    public DocumentWriteHandler(DocumentKey.Kind kind, CommandSubmitter submitter, long maxBodyBytes) {
        this.kind = kind;
        this.submitter = submitter;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        WriteCommand.Operation operation = exchange.getRequestMethod().equals(Methods.PUT) ? WriteCommand.Operation.PUT
                : exchange.getRequestMethod().equals(Methods.POST) ? WriteCommand.Operation.POST
                : WriteCommand.Operation.DELETE;
        XapiVersion version = Exchanges.version(exchange);
        boolean idRequired = operation != WriteCommand.Operation.DELETE || kind != DocumentKey.Kind.STATE;
        DocumentParams params = DocumentParams.parse(kind, exchange.getQueryParameters(), version, idRequired, false);
        AckMode ack = submitter.ackMode(exchange);
        Preconditions preconditions = Preconditions.of(exchange.getRequestHeaders().getFirst(Headers.IF_MATCH),
                exchange.getRequestHeaders().getFirst(Headers.IF_NONE_MATCH));
        // Comm 3.1: 1.0.3 clients must send a precondition with a profile PUT and may omit it for State; in 2.0.0 a
        // PUT without one may only create a document, whatever the resource.
        WriteCommand.PutRule rule = version == XapiVersion.V2_0_0 ? WriteCommand.PutRule.CREATE_ONLY
                : kind == DocumentKey.Kind.STATE ? WriteCommand.PutRule.ANY : WriteCommand.PutRule.NONE;
        if (operation == WriteCommand.Operation.DELETE) {
            // Dispatching keeps the exchange open until the sequencer's answer is sent (no body to wait for here).
            exchange.dispatch(SameThreadExecutor.INSTANCE, () -> submit(exchange, new WriteCommand.Document(operation,
                    params.key(), !params.hasId(), null, null, preconditions, rule,
                    new CompletableFuture<>()), ack));
            return;
        }
        String contentType = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        String type = contentType == null ? DEFAULT_CONTENT_TYPE : contentType;
        CommandSubmitter.receiveBody(exchange, maxBodyBytes, true, body -> {
            if (operation == WriteCommand.Operation.POST && DocumentMerge.isJson(type) && DocumentMerge.object(body) == null) {
                Responses.error(exchange, 400, "document.not_json_object", "body",
                        "a POST with Content-Type application/json must send a JSON object, which is merged into the document");
                return;
            }
            // A POST merge can still grow past the limit; the sequencer refuses that one with the same 413.
            if (!submitter.fitsLog(exchange, EventCodec.encodedLength(new DocumentWritten(params.key(), type, body,
                    SHA1_HEX, 0)), "store a smaller document")) {
                return;
            }
            submit(exchange, new WriteCommand.Document(operation, params.key(), false, type, body, preconditions,
                    rule, new CompletableFuture<>()), ack);
        });
    }

    private void submit(HttpServerExchange exchange, WriteCommand.Document command, AckMode ack) {
        submitter.submit(exchange, command, ack, accepted -> Responses.noContent(exchange));
    }
}
