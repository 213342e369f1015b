package dev.cairn.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.http.CorsPolicy;
import dev.cairn.http.ErrorPolicy;
import dev.cairn.http.HttpServer;
import dev.cairn.store.Database;
import dev.cairn.store.StoreException;
import dev.cairn.xapi.XapiVersion;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;

/** What a read that fails in the database answers. */
class OnWorkerTest {
    @Test
    void aReadTheDatabaseCannotAnswerGets503WithoutTheDatabasesText() throws Exception {
        String internals = "cannot read statements: FATAL: password authentication failed for user \"cairn\" "
                + "(jdbc:postgresql://db.internal:5432/lrs)";
        OnWorker read = new OnWorker(exchange -> {
            throw new StoreException(internals, new SQLException("db.internal"));
        });
        try (HttpServer server = HttpServer.start("127.0.0.1", 0, new ErrorPolicy(XapiVersion.V2_0_0,
                Database::unavailable, read), OptionMap.EMPTY, 100, 60_000,
                HttpServer.malformedAnswer("2.0.0", CorsPolicy.parse("*", 0)))) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/xapi/statements")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, r.statusCode());
            assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(r.body().startsWith("{\"error\":\"store.unavailable\""), r.body());
            assertFalse(r.body().contains("db.internal") || r.body().contains("FATAL"), r.body());
        }
    }
}
