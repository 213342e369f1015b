package dev.cairn.http;

import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.Optional;

/**
 * Enforces X-Experience-API-Version (Comm 3.3): 1.0.x and 2.0.x are accepted and answered with the latest patch
 * of that major version; a missing or other version gets 400. Every response carries the header.
 */
public final class VersionHandler implements HttpHandler {
    private final XapiVersion fallback;
    private final HttpHandler next;

    /** @param fallback the version reported on the 400 to a request that names none or one Cairn does not speak */
    public VersionHandler(XapiVersion fallback, HttpHandler next) {
        this.fallback = fallback;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String header = exchange.getRequestHeaders().getFirst(Exchanges.VERSION_HEADER);
        Optional<XapiVersion> version = XapiVersion.fromHeader(header);
        if (version.isEmpty()) {
            exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, fallback.header());
            Responses.error(exchange, 400, "version.unsupported", "header X-Experience-API-Version",
                    header == null
                            ? "the X-Experience-API-Version header is missing; send 1.0.3 or 2.0.0"
                            : "X-Experience-API-Version '" + header + "' is not supported; send 1.0.3 or 2.0.0");
            return;
        }
        exchange.putAttachment(Exchanges.VERSION, version.get());
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, version.get().header());
        next.handleRequest(exchange);
    }
}
