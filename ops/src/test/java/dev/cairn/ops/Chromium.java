package dev.cairn.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real headless Chromium driven through Debian's chromedriver over the W3C WebDriver protocol (a handful of
 * JSON requests, so no client library that would fetch drivers at run time). Each instance is one browser with a
 * fresh profile.
 */
final class Chromium implements AutoCloseable {
    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process driver;
    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String session;

    Chromium(Path profile) throws Exception {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("browser tests need Debian's chromium and chromium-driver "
                    + "(apt-get install chromium chromium-driver); .ci/run installs them");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        driver = new ProcessBuilder(DRIVER.toString(), "--port=" + port, "--allowed-ips=127.0.0.1")
                .redirectErrorStream(true).redirectOutput(profile.resolveSibling("chromedriver.log").toFile()).start();
        base = "http://127.0.0.1:" + port;
        waitForDriver();
        ObjectNode options = JSON.createObjectNode().put("binary", BROWSER.toString());
        ArrayNode args = options.putArray("args");
        for (String a : List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                "--user-data-dir=" + profile)) {
            args.add(a);
        }
        ObjectNode caps = JSON.createObjectNode();
        caps.putObject("capabilities").putObject("alwaysMatch").put("browserName", "chrome")
                .set("goog:chromeOptions", options);
        JsonNode created = call("POST", "/session", caps);
        session = created.path("sessionId").asText();
        ObjectNode timeouts = JSON.createObjectNode().put("script", 60_000).put("pageLoad", 30_000);
        call("POST", "/session/" + session + "/timeouts", timeouts);
    }

    private void waitForDriver() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/status")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (JSON.readTree(r.body()).path("value").path("ready").asBoolean()) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline || !driver.isAlive()) {
                throw new IllegalStateException("chromedriver did not start");
            }
            Thread.sleep(100);
        }
    }

    void open(String url) throws Exception {
        call("POST", "/session/" + session + "/url", JSON.createObjectNode().put("url", url));
    }

    /** Runs {@code script} in the page; it must end by calling {@code done(result)} (the last argument). */
    JsonNode runAsync(String script, Object... scriptArgs) throws Exception {
        ObjectNode body = JSON.createObjectNode().put("script", "const done = arguments[arguments.length - 1];\n" + script);
        ArrayNode a = body.putArray("args");
        for (Object o : scriptArgs) {
            a.add(JSON.valueToTree(o));
        }
        return call("POST", "/session/" + session + "/execute/async", body);
    }

    private JsonNode call(String method, String path, JsonNode body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode answer = JSON.readTree(r.body());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("WebDriver " + method + " " + path + " failed: " + r.body());
        }
        return answer.path("value");
    }

    @Override
    public void close() {
        try {
            call("DELETE", "/session/" + session, null);
        } catch (Exception e) {
            // the driver is stopped below either way
        } finally {
            driver.destroy();
            try {
                if (!driver.waitFor(10, TimeUnit.SECONDS)) {
                    driver.destroyForcibly();
                }
            } catch (InterruptedException e) {
                driver.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
