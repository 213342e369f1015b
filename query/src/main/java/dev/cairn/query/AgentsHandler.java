package dev.cairn.query;

import dev.cairn.http.Exchanges;
import dev.cairn.http.QueryParameters;
import dev.cairn.http.Responses;
import dev.cairn.store.DocumentReader;
import dev.cairn.xapi.Actor;
import dev.cairn.xapi.Ifi;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * GET /agents?agent= (Comm 2.4): the Person object Cairn knows for an agent: its identifier and every name
 * statements gave it. Cairn does not link different identifiers to one person, so each list has one IFI.
 */
public final class AgentsHandler implements HttpHandler {
    private static final List<String> AGENT = List.of("agent");

    private final DocumentReader reader;

    public AgentsHandler(DocumentReader reader) {
        this.reader = reader;
    }

    /** Runs on a worker thread under {@link OnWorker}; the error policy answers what it throws. */
    @Override
    public void handleRequest(HttpServerExchange exchange) {
        QueryParameters.check(exchange.getQueryParameters(), AGENT, "GET /agents");
        Actor agent = QueryParameters.agent(QueryParameters.required(exchange.getQueryParameters(), "agent"),
                Exchanges.version(exchange));
        List<String> names = reader.agentNames(agent.ifi().key());
        StringBuilder b = new StringBuilder("{\"objectType\":\"Person\"");
        if (!names.isEmpty() || agent.name() != null) {
            b.append(",\"name\":[");
            List<String> all = names.isEmpty() ? List.of(agent.name()) : names;
            for (int i = 0; i < all.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                Responses.quote(b, all.get(i));
            }
            b.append(']');
        }
        Ifi ifi = agent.ifi();
        switch (ifi.kind()) {
            case MBOX -> b.append(",\"mbox\":[");
            case MBOX_SHA1SUM -> b.append(",\"mbox_sha1sum\":[");
            case OPENID -> b.append(",\"openid\":[");
            case ACCOUNT -> b.append(",\"account\":[");
        }
        if (ifi.kind() == Ifi.Kind.ACCOUNT) {
            b.append("{\"homePage\":");
            Responses.quote(b, ifi.value());
            b.append(",\"name\":");
            Responses.quote(b, ifi.accountName());
            b.append('}');
        } else {
            Responses.quote(b, ifi.value());
        }
        b.append("]}");
        Responses.json(exchange, 200, b.toString().getBytes(StandardCharsets.UTF_8));
    }
}
