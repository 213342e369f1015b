package dev.cairn.http;

import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import io.undertow.server.DefaultResponseListener;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.StatusCodes;
import java.util.Deque;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one error policy, at the head of the chain: the only place where an exception becomes a response (the
 * sequencer's refusals are not exceptions but values, {@code WriteOutcome.Refused}, which the write side answers).
 * Every response carries X-Experience-API-Version (Comm 3.3: "in every response"), refusals made before
 * {@link VersionHandler} runs (405, 401) included: the version the request asks for when Cairn speaks it, else
 * the fallback.
 *
 * <p>A handler that cannot go on throws; work a handler started on another thread (a worker, a body's callback,
 * a credential's verification) hands what it caught to {@link #fail}. Either way the request gets, in the JSON
 * shape of {@link Responses#error}:
 * <ul>
 *   <li>a client's mistake ({@link XapiException}): 400 with its code, place and message;</li>
 *   <li>a store that cannot answer (what {@code unavailable} recognises: a database failure, a lost connection):
 *       503 with Retry-After, logged as a warning;</li>
 *   <li>anything else: 500, logged with the stack trace and the request (method, path, the client's
 *       X-Request-ID and the statementId parameter when there are).</li>
 * </ul>
 * A request ended with an error status and no body (by a handler, or by Undertow itself) gets the same shape. The
 * headers put on the exchange before that point (the xAPI version, CORS) stay. An exception's text goes to the
 * log, never to the client: it may name internals (the database's URL, its SQL), and it is no help to a client
 * developer.
 */
public final class ErrorPolicy implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorPolicy.class);
    /** The request id a client or proxy may send, named in the log line of a failure. */
    private static final HttpString REQUEST_ID = new HttpString("X-Request-ID");
    /** How long a client is asked to wait before it retries a request the store could not answer. */
    static final String RETRY_SECONDS = "1";
    /** The most characters of a client's request id or statement id a log line repeats. */
    static final int LOGGED_CHARS = 100;

    private final XapiVersion fallbackVersion;
    private final Predicate<Throwable> unavailable;
    private final HttpHandler next;
    private final DefaultResponseListener jsonBody = this::answer;

    /** @param unavailable whether a failure means the store cannot answer now (503), not a fault of the server */
    public ErrorPolicy(XapiVersion fallbackVersion, Predicate<Throwable> unavailable, HttpHandler next) {
        this.fallbackVersion = fallbackVersion;
        this.unavailable = unavailable;
        this.next = next;
    }

    /**
     * Ends {@code exchange} with the answer to {@code failure}: for work a handler started on another thread,
     * where an exception would otherwise leave the request unanswered (or reach Undertow, which logs every one
     * as a failure, a client's mistake included).
     */
    public static void fail(HttpServerExchange exchange, Throwable failure) {
        exchange.putAttachment(DefaultResponseListener.EXCEPTION, failure);
        if (!exchange.isResponseStarted()) {
            exchange.setStatusCode(StatusCodes.INTERNAL_SERVER_ERROR);
        }
        exchange.endExchange();
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        String asked = exchange.getRequestHeaders().getFirst(Exchanges.VERSION_HEADER);
        exchange.getResponseHeaders().put(Exchanges.VERSION_HEADER, asked == null ? fallbackVersion.header()
                : XapiVersion.fromHeader(asked).orElse(fallbackVersion).header());
        exchange.addDefaultResponseListener(jsonBody);
        try {
            next.handleRequest(exchange);
        } catch (Exception e) {
            fail(exchange, e);
        }
    }

    /** Gives an exchange that ends with an error status and no body its JSON body (Undertow's default response). */
    private boolean answer(HttpServerExchange exchange) {
        if (!exchange.isResponseChannelAvailable() || exchange.getStatusCode() < 400) {
            return false;
        }
        Throwable failure = exchange.getAttachment(DefaultResponseListener.EXCEPTION);
        if (failure instanceof XapiException e) {
            Responses.error(exchange, 400, e.code(), e.where(), e.getMessage());
        } else if (failure != null && unavailable.test(failure)) {
            LOG.warn("{}: the store could not answer: {}", request(exchange), failure.getMessage());
            exchange.getResponseHeaders().put(Headers.RETRY_AFTER, RETRY_SECONDS);
            Responses.error(exchange, 503, "store.unavailable", "database", "the database could not answer; retry shortly");
        } else if (failure != null) {
            LOG.error("{} failed", request(exchange), failure);
            String m = exchange.getRequestMethod().toString();
            // A write can fail after its entry reached the log (its sync failed): then it may be stored after all.
            Responses.error(exchange, 500, "server.error", "request", "the server could not complete this request"
                    + (m.equals("GET") || m.equals("HEAD") ? "" : "; what it writes may or may not have been stored "
                    + "(sent again with the same statement ids, statements are stored once)")
                    + "; its log names the failure at this time");
        } else {
            int status = exchange.getStatusCode();
            Responses.error(exchange, status, status >= 500 ? "server.error" : "request.refused", "request",
                    status >= 500 ? "the server could not complete this request; its log names the failure at this time"
                            : "the request was refused: " + StatusCodes.getReason(status));
        }
        return true;
    }

    /** The request as the log names it: method, path, and the request id and statement id when it has them. */
    private static String request(HttpServerExchange exchange) {
        StringBuilder b = new StringBuilder().append(exchange.getRequestMethod()).append(' ')
                .append(exchange.getRequestPath());
        String requestId = exchange.getRequestHeaders().getFirst(REQUEST_ID);
        if (requestId != null) {
            b.append(" (request ").append(loggable(requestId)).append(')');
        }
        for (String name : new String[] {"statementId", "voidedStatementId"}) {
            Deque<String> id = exchange.getQueryParameters().get(name);
            if (id != null) {
                b.append(" (").append(name).append(' ').append(loggable(id.getFirst())).append(')');
            }
        }
        return b.toString();
    }

    /**
     * A client's value as a log line may hold it: at most {@link #LOGGED_CHARS} characters, control characters (a
     * decoded %0A that would forge a line of its own) as '?'.
     */
    static String loggable(String value) {
        StringBuilder b = new StringBuilder(Math.min(value.length(), LOGGED_CHARS) + 1);
        for (int i = 0; i < value.length() && i < LOGGED_CHARS; i++) {
            char c = value.charAt(i);
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        return value.length() > LOGGED_CHARS ? b.append("...").toString() : b.toString();
    }
}
