package dev.cairn.query;

import dev.cairn.http.Exchanges;
import dev.cairn.http.Principal;
import dev.cairn.http.QueryParameters;
import dev.cairn.http.Responses;
import dev.cairn.store.DocumentReader;
import dev.cairn.store.StatementPage;
import dev.cairn.store.StatementReader;
import dev.cairn.store.StoredJson;
import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
    private final long maxPageBytes;

    /**
     * @param documents    where the canonical activity definitions of format=canonical are read
     * @param maxPageBytes the most bytes of statements (and attachments) a page holds, but always one statement
     */
    public StatementQueryHandler(StatementReader reader, DocumentReader documents, int defaultLimit, int maxLimit,
                                 long maxPageBytes) {
        this.reader = reader;
        this.documents = documents;
        this.defaultLimit = defaultLimit;
        this.maxLimit = maxLimit;
        this.maxPageBytes = maxPageBytes;
    }

    /** Runs on a worker thread under {@link OnWorker}; the error policy answers what it throws. */
    @Override
    public void handleRequest(HttpServerExchange exchange) {
        Map<String, Deque<String>> params;
        long cursor = 0;
        String path = exchange.getRequestPath();
        if (path.startsWith(MORE_PREFIX)) {
            QueryParameters.check(exchange.getQueryParameters(), List.of(), "a more link");
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

    /**
     * A page as the client asked for it, within the page byte bound: the store reads no more exact statements than
     * fit, and a page whose reshaped statements (a canonical definition can be far larger than the statement that
     * names its activity) or attachments pass the bound ends early, its more link continuing after the last one sent.
     */
    private void page(HttpServerExchange exchange, StatementParams p, Map<String, Deque<String>> params) {
        StatementFormats formats = formats(exchange, p);
        StatementPage stored = reader.page(p.query(), maxPageBytes);
        List<byte[]> statements = new ArrayList<>(stored.statements().size());
        List<List<String>> hashes = p.attachments() ? attachmentHashes(stored.statements()) : null;
        Map<String, Long> sizes = hashes == null ? Map.of() : reader.attachmentSizes(distinct(hashes));
        Set<String> sent = new LinkedHashSet<>();
        long bytes = 0;
        for (int i = 0; i < stored.statements().size(); i++) {
            byte[] s = formats.render(stored.statements().get(i));
            long add = s.length;
            if (hashes != null) {
                for (String h : hashes.get(i)) {
                    add += sent.contains(h) ? 0 : sizes.getOrDefault(h, 0L);
                }
            }
            if (i > 0 && bytes + add > maxPageBytes) {
                break;
            }
            bytes += add;
            statements.add(s);
            if (hashes != null) {
                sent.addAll(hashes.get(i));
            }
        }
        StatementPage page = stored.first(statements.size());
        byte[] more = page.more() ? (MORE_PREFIX + new MoreToken(params, page.lastSeq()).encode())
                .getBytes(StandardCharsets.US_ASCII) : new byte[0];
        int size = RESULT_START.length + Math.max(0, statements.size() - 1) + MORE.length + more.length + 2;
        for (byte[] s : statements) {
            size += s.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(RESULT_START);
        for (int i = 0; i < statements.size(); i++) {
            if (i > 0) {
                out.put((byte) ',');
            }
            out.put(statements.get(i));
        }
        out.put(MORE).put(more).put((byte) '"').put((byte) '}');
        if (hashes == null) {
            Responses.json(exchange, 200, out.array());
        } else {
            MultipartResponse.send(exchange, out.array(), reader.attachments(sent));
        }
    }

    /** Sends {@code json}, with the attachments of {@code statements} when the request asked for them. */
    private void respond(HttpServerExchange exchange, StatementParams p, byte[] json, List<byte[]> statements) {
        if (!p.attachments()) {
            Responses.json(exchange, 200, json);
            return;
        }
        MultipartResponse.send(exchange, json, reader.attachments(distinct(attachmentHashes(statements))));
    }

    /**
     * The SHA-2 of each statement's attachments whose content its own request carried (lowercase, as stored): a
     * statement that names a content by its hash with only a fileUrl does not fetch what another request sent.
     */
    private List<List<String>> attachmentHashes(List<byte[]> statements) {
        List<List<String>> out = new ArrayList<>(statements.size());
        List<String> ids = new ArrayList<>(statements.size());
        for (byte[] s : statements) {
            Statement statement = StatementParser.parseStored(s).statement();
            List<String> hashes = new ArrayList<>(0);
            for (Attachment a : statement.allAttachments()) {
                hashes.add(a.sha2().toLowerCase(Locale.ROOT));
            }
            out.add(hashes);
            ids.add(hashes.isEmpty() ? null : statement.id().toString());
        }
        Map<String, Set<String>> carried = reader.carriedAttachments(ids.stream().filter(Objects::nonNull).toList());
        for (int i = 0; i < out.size(); i++) {
            out.get(i).retainAll(ids.get(i) == null ? Set.of() : carried.getOrDefault(ids.get(i), Set.of()));
        }
        return out;
    }

    private static Set<String> distinct(List<List<String>> hashes) {
        Set<String> out = new LinkedHashSet<>();
        hashes.forEach(out::addAll);
        return out;
    }

}
