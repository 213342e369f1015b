package dev.cairn.query;

import dev.cairn.http.QueryParameters;
import dev.cairn.http.Responses;
import dev.cairn.store.DocumentReader;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * GET /activities?activityId= (Comm 2.5): the Activity with the canonical definition merged from the statements
 * that defined it; an Activity with only its id when none did.
 */
public final class ActivitiesHandler implements HttpHandler {
    private static final List<String> ACTIVITY_ID = List.of("activityId");

    private final DocumentReader reader;

    public ActivitiesHandler(DocumentReader reader) {
        this.reader = reader;
    }

    /** Runs on a worker thread under {@link OnWorker}; the error policy answers what it throws. */
    @Override
    public void handleRequest(HttpServerExchange exchange) {
        QueryParameters.check(exchange.getQueryParameters(), ACTIVITY_ID, "GET /activities");
        String activityId = QueryParameters.iri(QueryParameters.required(exchange.getQueryParameters(), "activityId"),
                "activityId");
        StringBuilder head = new StringBuilder("{\"objectType\":\"Activity\",\"id\":");
        Responses.quote(head, activityId);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        Optional<byte[]> definition = reader.activityDefinition(activityId);
        if (definition.isPresent()) {
            out.writeBytes(",\"definition\":".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(definition.get());
        }
        out.write('}');
        Responses.json(exchange, 200, out.toByteArray());
    }
}
