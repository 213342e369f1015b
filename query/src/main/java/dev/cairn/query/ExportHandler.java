package dev.cairn.query;

import dev.cairn.http.QueryParameters;
import dev.cairn.http.Responses;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Protocols;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;

/**
 * {@code GET /admin/export}: what {@code cairn export} writes, streamed over HTTP ({@link StatementExport}): the
 * statement query's filters as parameters, and {@code format} ndjson (the default) or csv. Runs on a worker thread
 * (wrap it in {@link OnWorker}); the body goes out chunked as the store's pages are read, so memory stays bounded
 * whatever the result's size, and a client that stops reading is dropped at the server's write timeout. At most
 * {@link #MAX_RUNNING} exports run at once (each holds a worker thread); another gets 429. An export that fails part
 * way (the database lost) closes the connection without the chunked body's end, so the client sees it cut short
 * rather than whole; for that reason it needs HTTP/1.1 (an HTTP/1.0 body ends where the connection does).
 */
public final class ExportHandler implements HttpHandler {
    public static final String PATH = "/admin/export";
    static final int MAX_RUNNING = 2;
    private static final Logger LOG = LoggerFactory.getLogger(ExportHandler.class);
    private static final List<String> PARAMETERS;

    static {
        List<String> p = new ArrayList<>(StatementExport.PARAMETERS);
        p.add("format");
        PARAMETERS = List.copyOf(p);
    }

    private final StatementReader reader;
    private final Semaphore running = new Semaphore(MAX_RUNNING);

    public ExportHandler(StatementReader reader) {
        this.reader = reader;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws IOException {
        if (!exchange.getProtocol().equals(Protocols.HTTP_1_1)) {
            Responses.error(exchange, 400, "export.http_version", "request line", "an export streams a chunked body, "
                    + "which " + exchange.getProtocol() + " cannot carry (its end could not be told from a cut "
                    + "connection); send HTTP/1.1 (behind nginx: proxy_http_version 1.1)");
            return;
        }
        Map<String, Deque<String>> params = new TreeMap<>(exchange.getQueryParameters());
        QueryParameters.check(params, PARAMETERS, "GET " + PATH);
        StatementExport.Format format = format(QueryParameters.one(params, "format"));
        params.remove("format");
        StatementQuery query = StatementExport.query(params, XapiVersion.V2_0_0);
        if (!running.tryAcquire()) {
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "5");
            Responses.error(exchange, 429, "export.busy", "path " + PATH, MAX_RUNNING + " exports are running; "
                    + "try again once one has finished");
            return;
        }
        try {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, format == StatementExport.Format.CSV
                    ? "text/csv; charset=utf-8" : "application/x-ndjson");
            exchange.getResponseHeaders().put(Headers.CONTENT_DISPOSITION, "attachment; filename=\"statements."
                    + format.name().toLowerCase(Locale.ROOT) + "\"");
            exchange.startBlocking();
            OutputStream out = new BufferedOutputStream(exchange.getOutputStream(), 1 << 16);
            long n;
            try {
                n = StatementExport.write(reader, query, format, out);
                out.close();
            } catch (IOException | RuntimeException e) {
                if (!exchange.isResponseStarted()) {
                    throw e;
                }
                LOG.warn("GET {} stopped part way, the connection closed without the body's end: {}", PATH,
                        e.toString());
                IoUtils.safeClose(exchange.getConnection());
                return;
            }
            LOG.info("GET {}: {} statements exported as {}", PATH, n, format);
        } finally {
            running.release();
        }
    }

    private static StatementExport.Format format(String value) {
        if (value == null || value.equals("ndjson")) {
            return StatementExport.Format.NDJSON;
        }
        if (value.equals("csv")) {
            return StatementExport.Format.CSV;
        }
        throw new XapiException("parameter format", "parameter.invalid", "format must be ndjson or csv; got '"
                + value + "'");
    }
}
