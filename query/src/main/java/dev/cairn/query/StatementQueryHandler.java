package dev.cairn.query;

import dev.cairn.http.Exchanges;
import dev.cairn.http.Responses;
import dev.cairn.store.StatementPage;
import dev.cairn.store.StatementReader;
import dev.cairn.store.StoredJson;
import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * GET and HEAD on /statements and on /statements/more/TOKEN. Statements are returned in their exact stored form
 * without being parsed: a page is the stored bytes joined into a StatementResult.
 */
public final class StatementQueryHandler implements HttpHandler {
    public static final String MORE_PREFIX = "/xapi/statements/more/";
    private static final byte[] RESULT_START = "{\"statements\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MORE = "],\"more\":\"".getBytes(StandardCharsets.US_ASCII);

    private final StatementReader reader;
    private final int defaultLimit;
    private final int maxLimit;

    public StatementQueryHandler(StatementReader reader, int defaultLimit, int maxLimit) {
        this.reader = reader;
        this.defaultLimit = defaultLimit;
        this.maxLimit = maxLimit;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this);
            return;
        }
        try {
            Map<String, Deque<String>> params;
            long cursor = 0;
            String path = exchange.getRequestPath();
            if (path.startsWith(MORE_PREFIX)) {
                if (!exchange.getQueryParameters().isEmpty()) {
                    throw new XapiException("parameter", "parameter.unknown", "a more link takes no parameters");
                }
                MoreToken token = MoreToken.decode(path.substring(MORE_PREFIX.length()));
                params = token.params();
                cursor = token.cursor();
            } else {
                params = exchange.getQueryParameters();
            }
            StatementParams p = StatementParams.parse(params, Exchanges.version(exchange), defaultLimit, maxLimit, cursor);
            if (p.statementId() != null || p.voidedStatementId() != null) {
                single(exchange, p);
            } else {
                page(exchange, p, params);
            }
        } catch (XapiException e) {
            Responses.badRequest(exchange, e);
        }
    }

    private void single(HttpServerExchange exchange, StatementParams p) {
        UUID id = p.statementId() != null ? p.statementId() : p.voidedStatementId();
        Optional<StoredJson> found = p.statementId() != null ? reader.byId(id) : reader.voidedById(id);
        if (found.isEmpty()) {
            Responses.error(exchange, 404, "statement.not_found", p.statementId() != null ? "parameter statementId"
                    : "parameter voidedStatementId", "no " + (p.statementId() != null ? "" : "voided ")
                    + "statement with id " + id + " is stored" + (p.statementId() != null
                    ? " (a voided statement is returned only by voidedStatementId)" : ""));
            return;
        }
        exchange.getResponseHeaders().put(Headers.LAST_MODIFIED, HttpDates.format(found.get().storedMillis()));
        Responses.json(exchange, 200, found.get().json());
    }

    private void page(HttpServerExchange exchange, StatementParams p, Map<String, Deque<String>> params) {
        StatementPage page = reader.page(p.query());
        int size = RESULT_START.length + MORE.length + 256;
        for (byte[] s : page.statements()) {
            size += s.length + 1;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.writeBytes(RESULT_START);
        for (int i = 0; i < page.statements().size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(page.statements().get(i));
        }
        out.writeBytes(MORE);
        if (page.more()) {
            out.writeBytes((MORE_PREFIX + new MoreToken(params, page.lastSeq()).encode()).getBytes(StandardCharsets.US_ASCII));
        }
        out.write('"');
        out.write('}');
        Responses.json(exchange, 200, out.toByteArray());
    }

}
