package dev.cairn.query;

import dev.cairn.http.DocumentParams;
import dev.cairn.http.Exchanges;
import dev.cairn.http.Responses;
import dev.cairn.store.DocumentIds;
import dev.cairn.store.DocumentReader;
import dev.cairn.store.StoredDocument;
import dev.cairn.xapi.DocumentKey;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * GET and HEAD on a document resource: one document with its Content-Type, ETag and Last-Modified, or, without
 * a document id, the JSON array of the ids stored there (optionally only those updated since a time).
 */
public final class DocumentReadHandler implements HttpHandler {
    private final DocumentKey.Kind kind;
    private final DocumentReader reader;

    public DocumentReadHandler(DocumentKey.Kind kind, DocumentReader reader) {
        this.kind = kind;
        this.reader = reader;
    }

    /** Runs on a worker thread under {@link OnWorker}; the error policy answers what it throws. */
    @Override
    public void handleRequest(HttpServerExchange exchange) {
        DocumentParams params = DocumentParams.parse(kind, exchange.getQueryParameters(), Exchanges.version(exchange),
                false, true);
        if (params.hasId()) {
            Optional<StoredDocument> doc = reader.get(params.key());
            if (doc.isEmpty()) {
                Responses.error(exchange, 404, "document.not_found", "parameter " + DocumentParams.idParameter(kind),
                        "no document '" + params.key().id() + "' is stored here");
                return;
            }
            exchange.getResponseHeaders().put(Headers.ETAG, "\"" + doc.get().etag() + "\"");
            exchange.getResponseHeaders().put(Headers.LAST_MODIFIED, HttpDates.format(doc.get().updatedMillis()));
            exchange.setStatusCode(200);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, doc.get().contentType());
            Responses.send(exchange, doc.get().content());
            return;
        }
        DocumentIds ids = reader.ids(params.key(), params.sinceMillis() == null ? Long.MIN_VALUE : params.sinceMillis());
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < ids.ids().size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            Responses.quote(b, ids.ids().get(i));
        }
        b.append(']');
        if (ids.lastUpdatedMillis() > 0) {
            exchange.getResponseHeaders().put(Headers.LAST_MODIFIED, HttpDates.format(ids.lastUpdatedMillis()));
        }
        Responses.json(exchange, 200, b.toString().getBytes(StandardCharsets.UTF_8));
    }
}
