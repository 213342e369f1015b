package dev.cairn.query;

import dev.cairn.http.Responses;
import dev.cairn.store.DocumentReader;
import dev.cairn.xapi.Iris;
import dev.cairn.xapi.XapiException;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;

/**
 * GET /activities?activityId= (Comm 2.5): the Activity with the canonical definition merged from the statements
 * that defined it; an Activity with only its id when none did.
 */
public final class ActivitiesHandler implements HttpHandler {
    private final DocumentReader reader;

    public ActivitiesHandler(DocumentReader reader) {
        this.reader = reader;
    }

    /** Runs on a worker thread under {@link OnWorker}, which answers a bad parameter with 400. */
    @Override
    public void handleRequest(HttpServerExchange exchange) {
        String activityId = onlyParameter(exchange.getQueryParameters(), "activityId");
        if (!Iris.isAbsolute(activityId)) {
            throw new XapiException("parameter activityId", "parameter.invalid",
                    "activityId must be an absolute IRI; got '" + activityId + "'");
        }
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

    /** The value of the one parameter a resource takes; anything else is a 400 naming it. */
    static String onlyParameter(Map<String, Deque<String>> params, String name) {
        for (Map.Entry<String, Deque<String>> p : params.entrySet()) {
            if (!p.getKey().equals(name)) {
                throw new XapiException("parameter " + p.getKey(), p.getKey().equalsIgnoreCase(name)
                        ? "parameter.case" : "parameter.unknown", "'" + p.getKey() + "' is not a parameter of this "
                        + "resource; it takes only " + name + " (parameter names are case-sensitive)");
            }
            if (p.getValue().size() > 1) {
                throw new XapiException("parameter " + name, "parameter.repeated", name + " is given more than once");
            }
        }
        Deque<String> v = params.get(name);
        if (v == null) {
            throw new XapiException("parameter " + name, "parameter.missing", "this resource needs the " + name + " parameter");
        }
        return v.getFirst();
    }
}
