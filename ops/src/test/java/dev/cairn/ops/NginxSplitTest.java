package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample nginx configuration in ops/deploy, run by a real nginx in front of separate ingest, project and
 * query processes: writes reach the ingest, reads the query process, and a client sees one LRS.
 */
class NginxSplitTest {
    @TempDir
    Path data;
    TestDatabase database;
    ChildProcess ingest;
    ChildProcess project;
    ChildProcess query;
    Process nginx;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @AfterEach
    void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy();
            nginx.waitFor();
        }
        for (ChildProcess c : new ChildProcess[] {ingest, project, query}) {
            if (c != null) {
                c.close();
            }
        }
        if (database != null) {
            database.close();
        }
    }

    private ChildProcess child(String command) throws Exception {
        return new ChildProcess(command, data.resolve(command + ".out"), "--data", data.toString(), "--db",
                database.url(), "--admin-credential", TestLrs.KEY + ":" + TestLrs.SECRET).start();
    }

    /** Where nginx is not installed the test is skipped; CI installs it and fails on any skipped test. */
    static boolean nginxInstalled() {
        try {
            return new ProcessBuilder("nginx", "-v").redirectErrorStream(true).start().waitFor() == 0;
        } catch (java.io.IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void theSampleConfigurationRoutesWritesToIngestAndReadsToQuery() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(nginxInstalled(), "nginx is not installed");
        database = TestDatabase.create("sqlite", data);
        ingest = child("ingest");
        project = child("project");
        query = child("query");
        ingest.awaitReady(http);
        project.awaitReady(http);
        query.awaitReady(http);

        int port = ChildProcess.freePort();
        String config = Files.readString(Path.of("deploy/nginx.conf"))
                .replace("127.0.0.1:8081", "127.0.0.1:" + ingest.port)
                .replace("127.0.0.1:8083", "127.0.0.1:" + query.port)
                .replace("listen 127.0.0.1:8080", "listen 127.0.0.1:" + port);
        Path prefix = Files.createDirectories(data.resolve("nginx"));
        Files.createDirectories(prefix.resolve("logs"));
        Path conf = prefix.resolve("nginx.conf");
        Files.writeString(conf, config);
        nginx = new ProcessBuilder("nginx", "-p", prefix.toString(), "-c", conf.toString(), "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(prefix.resolve("nginx.out").toFile()).start();

        String base = "http://127.0.0.1:" + port + "/xapi";
        waitFor(base + "/about");
        HttpResponse<String> post = http.send(request(base + "/statements").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Statements.statement("n@example.com", Statements.COMPLETED,
                        "http://example.com/nginx"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, post.statusCode(), post.body());
        String id = TestLrs.json(post).get(0).asText();
        HttpResponse<String> get = http.send(request(base + "/statements?statementId=" + id).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, get.statusCode(), get.body());
        assertEquals(id, TestLrs.json(get).get("id").asText());

        HttpResponse<String> put = http.send(request(base + "/agents/profile?profileId=p&agent="
                + java.net.URLEncoder.encode("{\"mbox\":\"mailto:n@example.com\"}", java.nio.charset.StandardCharsets.UTF_8))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"a\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, put.statusCode(), put.body());

        // Browser content: preflights of reads and writes pass through nginx and are answered without a credential.
        for (String method : new String[] {"GET", "PUT", "POST"}) {
            HttpResponse<String> preflight = http.send(HttpRequest.newBuilder(URI.create(base + "/statements"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", "https://lms.example.com")
                    .header("Access-Control-Request-Method", method)
                    .header("Access-Control-Request-Headers", "authorization,x-experience-api-version").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(204, preflight.statusCode(), method + ": " + preflight.body());
            assertEquals("https://lms.example.com", preflight.headers().firstValue("Access-Control-Allow-Origin")
                    .orElse(null), method);
        }
        HttpResponse<String> read = http.send(request(base + "/statements?statementId=" + id)
                .header("Origin", "https://lms.example.com").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, read.statusCode());
        assertEquals("https://lms.example.com", read.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertTrue(read.headers().firstValue("Access-Control-Expose-Headers").orElse("")
                .contains("X-Experience-API-Consistent-Through"));
    }

    private HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("X-Experience-API-Version", "2.0.0")
                .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET));
    }

    private void waitFor(String url) throws Exception {
        for (int i = 0; i < 100; i++) {
            if (!nginx.isAlive()) {
                throw new IllegalStateException("nginx exited: " + Files.readString(data.resolve("nginx/nginx.out")));
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("nginx did not answer at " + url);
    }
}
