package dev.cairn.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Requests to one server's xAPI resources with a credential and a version header, through the JDK's HttpClient. */
final class XapiClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final String base;
    private final String authorization;

    /** @param base the xAPI URL without a trailing slash ({@link CairnProcess#url()}) */
    XapiClient(String base, String credential) {
        this.base = base;
        this.authorization = DurabilityTrials.basic(credential);
    }

    /** A request of {@code pathAndQuery} (under the xAPI URL) in xAPI {@code version}. */
    HttpRequest.Builder request(String pathAndQuery, String version) {
        return HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(TIMEOUT)
                .header("Authorization", authorization).header("X-Experience-API-Version", version);
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return send(request(pathAndQuery, "2.0.0").GET());
    }

    /**
     * Sends an xAPI 2.0.0 request with a body (null: none).
     *
     * @param headers name, value, name, value, ...
     */
    HttpResponse<String> send(String method, String pathAndQuery, String contentType, byte[] body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = request(pathAndQuery, "2.0.0").method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            r.header("Content-Type", contentType);
        }
        for (int i = 0; i < headers.length; i += 2) {
            r.header(headers[i], headers[i + 1]);
        }
        return send(r);
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
