package dev.cairn.query;

import dev.cairn.http.Exchanges;
import dev.cairn.http.Principal;
import dev.cairn.http.Responses;
import dev.cairn.store.DocumentReader;
import dev.cairn.store.StatementPage;
import dev.cairn.store.StatementReader;
import dev.cairn.store.StoredJson;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.UUID;

/**
 * GET and HEAD on /statements and on /statements/more/TOKEN. format=exact returns the stored bytes without parsing
 * them (a page is the stored bytes joined into a StatementResult); format=ids and format=canonical are built from
 * them per request. attachments=true answers multipart/mixed with each attachment of the returned
 * statements once.
 */
public final class StatementQueryHandler implements HttpHandler {
    public static final String MORE_PREFIX = "/xapi/statements/more/";
    private static final byte[] RESULT_START = "{\"statements\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MORE = "],\"more\":\"".getBytes(StandardCharsets.US_ASCII);

    private final StatementReader reader;
    private final DocumentReader documents;
    private final int defaultLimit;
    private final int maxLimit;

    /**
     * @param documents where the canonical activity definitions of format=canonical are read
     */
    public StatementQueryHandler(StatementReader reader, DocumentReader documents, int defaultLimit, int maxLimit) {
        this.reader = reader;
        this.documents = documents;
        this.defaultLimit = defaultLimit;
        this.maxLimit = maxLimit;
    }

    /** Runs on a worker thread under {@link OnWorker}, which answers a bad parameter with 400. */
    @Override
    public void handleRequest(HttpServerExchange exchange) {
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
        Principal principal = Exchanges.principal(exchange);
        if (principal != null && principal.readsOnlyOwnStatements()) {
            p = p.onlyAuthority(principal.authorityKey());
        }
        if (p.statementId() != null || p.voidedStatementId() != null) {
            single(exchange, p);
        } else {
            page(exchange, p, params);
        }
    }

    private StatementFormats formats(HttpServerExchange exchange, StatementParams p) {
        return new StatementFormats(p.format(), documents, exchange.getRequestHeaders().getFirst(Headers.ACCEPT_LANGUAGE));
    }

    private void single(HttpServerExchange exchange, StatementParams p) {
        UUID id = p.statementId() != null ? p.statementId() : p.voidedStatementId();
        StatementFormats formats = formats(exchange, p);
        Optional<StoredJson> found = p.statementId() != null ? reader.byId(id) : reader.voidedById(id);
        if (found.isPresent() && p.authority() != null && !p.authority().equals(FilterKey.authorityKey(
                StatementParser.parseStored(found.get().json()).statement().authority()))) {
            found = Optional.empty(); // statements/read/mine: another credential's statement is not there for this one
        }
        if (found.isEmpty()) {
            Responses.error(exchange, 404, "statement.not_found", p.statementId() != null ? "parameter statementId"
                    : "parameter voidedStatementId", "no " + (p.statementId() != null ? "" : "voided ")
                    + "statement with id " + id + " is stored" + (p.statementId() != null
                    ? " (a voided statement is returned only by voidedStatementId)" : ""));
            return;
        }
        exchange.getResponseHeaders().put(Headers.LAST_MODIFIED, HttpDates.format(found.get().storedMillis()));
        byte[] json = formats.render(found.get().json());
        respond(exchange, p, json, List.of(json));
    }

    private void page(HttpServerExchange exchange, StatementParams p, Map<String, Deque<String>> params) {
        StatementFormats formats = formats(exchange, p);
        StatementPage stored = reader.page(p.query());
        List<byte[]> statements = stored.statements();
        if (!formats.exact()) {
            statements = statements.stream().map(formats::render).toList();
        }
        StatementPage page = new StatementPage(statements, stored.more(), stored.lastSeq());
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
        respond(exchange, p, out.toByteArray(), page.statements());
    }

    /** Sends {@code json}, with the attachments of {@code statements} when the request asked for them. */
    private void respond(HttpServerExchange exchange, StatementParams p, byte[] json, List<byte[]> statements) {
        if (!p.attachments()) {
            Responses.json(exchange, 200, json);
            return;
        }
        Set<String> hashes = new LinkedHashSet<>();
        for (byte[] s : statements) {
            for (Attachment a : StatementParser.parseStored(s).statement().allAttachments()) {
                hashes.add(a.sha2().toLowerCase(Locale.ROOT)); // stored by the hash in lowercase
            }
        }
        MultipartResponse.send(exchange, json, reader.attachments(hashes));
    }

}
