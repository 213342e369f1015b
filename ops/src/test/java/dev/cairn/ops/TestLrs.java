package dev.cairn.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/** A real Cairn on a free port with its data in a temporary directory, and an HTTP client for it. */
final class TestLrs implements AutoCloseable {
    static final String KEY = "test-key";
    static final String SECRET = "test-secret";
    static final ObjectMapper JSON = new ObjectMapper();
    /** The request body limit: above Undertow's own 2 MiB default, so tests see that Cairn's limit is the one applied. */
    static final long MAX_BODY = 4 << 20;

    final Path data;
    final String db;
    final Cairn cairn;
    final HttpClient http = HttpClient.newHttpClient();

    TestLrs(Path data, String db) throws Exception {
        this(data, db, "*");
    }

    /** @param db the JDBC URL, or null for the default SQLite database in {@code data} */
    TestLrs(Path data, String db, String corsOrigins) throws Exception {
        this(settings(data, db, corsOrigins));
    }

    TestLrs(Settings settings) throws Exception {
        this(settings, java.util.List.of());
    }

    /** A Cairn that also stores the forwarding targets a configuration file gives. */
    TestLrs(Settings settings, java.util.List<dev.cairn.store.ForwardTarget> targets) throws Exception {
        this(settings, targets, Clock.systemUTC());
    }

    /** A Cairn whose clock (stored times, retention) is {@code clock}. */
    TestLrs(Settings settings, java.util.List<dev.cairn.store.ForwardTarget> targets, Clock clock) throws Exception {
        this.data = settings.get(SettingTable.DATA);
        this.db = settings.get(SettingTable.DB).jdbc();
        this.cairn = Cairn.start(settings, java.util.EnumSet.allOf(Role.class), targets, clock);
    }

    /**
     * The settings tests start Cairn with: port 0, the test credential, a 4 MiB body limit, a small ring.
     *
     * @param db the JDBC URL, or null for the default SQLite database in {@code data}
     */
    static Settings settings(Path data, String db) {
        return settings(data, db, "*");
    }

    static Settings settings(Path data, String db, String corsOrigins) {
        Map<String, String> given = new HashMap<>(Map.of("data", data.toString(), "port", "0", "admin-credential",
                KEY + ":" + SECRET, "max-body", String.valueOf(MAX_BODY), "ring-size", "1024", "projector-batch",
                "5000", "cors-origins", corsOrigins));
        if (db != null) {
            given.put("db", db);
        }
        return Settings.parse(given);
    }

    /** Runs {@code cairn credentials ARGS} on this LRS's data and database, asserts it succeeds, returns its output. */
    String credentials(String... args) {
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 5];
            all[0] = "credentials";
            System.arraycopy(args, 0, all, 1, args.length);
            all[args.length + 1] = "--data";
            all[args.length + 2] = data.toString();
            all[args.length + 3] = "--db";
            all[args.length + 4] = db;
            org.junit.jupiter.api.Assertions.assertEquals(0, Main.run(all), String.join(" ", args));
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8).trim();
    }

    String base() {
        return "http://127.0.0.1:" + cairn.port();
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .header("X-Experience-API-Version", "1.0.3")
                .header("Authorization", basic(KEY, SECRET));
    }

    static String basic(String key, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((key + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> put(String id, String body) throws IOException, InterruptedException {
        return send(request("/xapi/statements?statementId=" + id).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> post(String body) throws IOException, InterruptedException {
        return send(request("/xapi/statements").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return send(request(pathAndQuery).GET());
    }

    static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }

    @Override
    public void close() {
        cairn.close();
    }
}
