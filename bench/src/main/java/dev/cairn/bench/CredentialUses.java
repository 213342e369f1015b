package dev.cairn.bench;

import static dev.cairn.bench.XapiClient.encode;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Every resource and method a credential with scope {@code all} may use, for {@link Revocation}: each a request
 * built for one round (a write changes something of its round's own), and for a write a way to tell, asking with
 * another credential, whether that round's write took effect. Documents a round reads or deletes are made
 * beforehand with the other credential ({@link #prepare}).
 */
final class CredentialUses {
    /** One request; {@code applied} is null for a read. */
    record Use(String name, boolean write, Request request, Applied applied) {
        HttpRequest.Builder request(String base, int round) throws Exception {
            return request.build(base, round);
        }
    }

    interface Request {
        HttpRequest.Builder build(String base, int round) throws Exception;
    }

    interface Applied {
        boolean in(int round) throws Exception;
    }

    private static final String ACTIVITY = "http://example.com/revocation";
    private static final String AGENT = "{\"mbox\":\"mailto:revoked@example.com\"}";
    private static final String VERB = "http://adlnet.gov/expapi/verbs/experienced";
    /** The three document resources, each with the parameters that name one document but its id. */
    private static final String[][] DOCUMENTS = {
            {"state", "/activities/state?activityId=" + encode(ACTIVITY) + "&agent=" + encode(AGENT), "stateId"},
            {"activity profile", "/activities/profile?activityId=" + encode(ACTIVITY), "profileId"},
            {"agent profile", "/agents/profile?agent=" + encode(AGENT), "profileId"}};

    private final HttpClient http;
    private final String serve;
    private final String admin;
    private final String authorization;
    private final String run;
    private final List<Use> all = new ArrayList<>();
    private String more;
    private UUID stored;

    /**
     * @param serve         the base URL where the other credential makes and reads back what the uses need
     * @param admin         the other credential's Authorization header value
     * @param authorization the Authorization header value of the credential that is used
     * @param run           what makes this run's ids its own
     */
    CredentialUses(HttpClient http, String serve, String admin, String authorization, String run) {
        this.http = http;
        this.serve = serve;
        this.admin = admin;
        this.authorization = authorization;
        this.run = run;
        statements();
        for (String[] d : DOCUMENTS) {
            documents(d[0], d[1], d[2]);
        }
        all.add(read("GET activities", (base, r) -> as(base, "/activities?activityId=" + encode(ACTIVITY)).GET()));
        all.add(read("GET agents", (base, r) -> as(base, "/agents?agent=" + encode(AGENT)).GET()));
    }

    List<Use> all() {
        return all;
    }

    /** Makes what round {@code round} reads and deletes (and, before round 0, the statements and the more link). */
    void prepare(int round) throws Exception {
        if (round == 0) {
            for (int i = 0; i < 2; i++) {
                stored = id("stored", i);
                expect(send(asAdmin("/statements?statementId=" + stored).header("Content-Type", "application/json")
                        .PUT(body(statement(stored)))), 204);
            }
            HttpResponse<String> page = send(as(serve, "/statements?limit=1").GET());
            expect(page, 200);
            more = json(page.body()).path("more").asText();
            for (String[] d : DOCUMENTS) {
                for (String id : List.of("read", "merge")) {
                    expect(send(asAdmin(d[1] + "&" + d[2] + "=" + id + "-" + run).header("Content-Type",
                            "application/json").header("If-None-Match", "*").PUT(body("{}"))), 204);
                }
            }
        }
        for (String[] d : DOCUMENTS) {
            expect(send(asAdmin(document(d, "delete", round)).header("Content-Type", "application/json")
                    .header("If-None-Match", "*").PUT(body("{}"))), 204);
        }
    }

    private void statements() {
        all.add(read("GET statements", (base, r) -> as(base, "/statements?limit=1").GET()));
        all.add(read("HEAD statements", (base, r) -> as(base, "/statements?limit=1").method("HEAD",
                HttpRequest.BodyPublishers.noBody())));
        all.add(read("GET a more link", (base, r) -> as(base, more.substring("/xapi".length())).GET()));
        all.add(read("GET statementId", (base, r) -> as(base, "/statements?statementId=" + stored).GET()));
        all.add(write("PUT statement", (base, r) -> as(base, "/statements?statementId=" + id("put", r))
                .header("Content-Type", "application/json").PUT(body(statement(id("put", r)))),
                r -> storedStatement(id("put", r))));
        all.add(write("POST statement", (base, r) -> as(base, "/statements").header("Content-Type", "application/json")
                .POST(body(statement(id("post", r)))), r -> storedStatement(id("post", r))));
        all.add(read("Alternate Request Syntax GET statements", (base, r) -> form(base, "GET",
                "&limit=1")));
        all.add(write("Alternate Request Syntax PUT statement", (base, r) -> form(base, "PUT", "&statementId="
                + id("form", r) + "&Content-Type=application%2Fjson&content=" + encode(statement(id("form", r)))),
                r -> storedStatement(id("form", r))));
    }

    private void documents(String name, String resource, String idParameter) {
        String[] d = {name, resource, idParameter};
        String read = resource + "&" + idParameter + "=read-" + run;
        String merge = resource + "&" + idParameter + "=merge-" + run;
        all.add(read("GET " + name, (base, r) -> as(base, read).GET()));
        all.add(read("HEAD " + name, (base, r) -> as(base, read).method("HEAD", HttpRequest.BodyPublishers.noBody())));
        all.add(read("GET " + name + " ids", (base, r) -> as(base, resource).GET()));
        all.add(write("PUT " + name, (base, r) -> as(base, document(d, "put", r)).header("Content-Type",
                "application/json").header("If-None-Match", "*").PUT(body("{\"round\":" + r + "}")),
                r -> send(asAdmin(document(d, "put", r)).GET()).statusCode() == 200));
        all.add(write("POST " + name, (base, r) -> as(base, merge).header("Content-Type", "application/json")
                .POST(body("{\"r" + r + "\":true}")),
                r -> json(expect(send(asAdmin(merge).GET()), 200).body()).has("r" + r)));
        all.add(write("DELETE " + name, (base, r) -> as(base, document(d, "delete", r)).DELETE(),
                r -> send(asAdmin(document(d, "delete", r)).GET()).statusCode() == 404));
    }

    private String document(String[] d, String what, int round) {
        return d[1] + "&" + d[2] + "=" + what + "-" + run + "-" + round;
    }

    private static Use read(String name, Request request) {
        return new Use(name, false, request, null);
    }

    private static Use write(String name, Request request, Applied applied) {
        return new Use(name, true, request, applied);
    }

    private UUID id(String what, int round) {
        return UUID.nameUUIDFromBytes((run + "/" + what + "/" + round).getBytes(StandardCharsets.UTF_8));
    }

    private static String statement(UUID id) {
        return "{\"id\":\"" + id + "\",\"actor\":" + AGENT + ",\"verb\":{\"id\":\"" + VERB + "\"},\"object\":{\"id\":\""
                + ACTIVITY + "\"}}";
    }

    private boolean storedStatement(UUID id) throws Exception {
        return send(asAdmin("/statements?statementId=" + id).GET()).statusCode() == 200;
    }

    /** A request of the Alternate Request Syntax: the method, the credential and the version in the form. */
    private HttpRequest.Builder form(String base, String method, String fields) {
        return HttpRequest.newBuilder(uri(base, "/statements?method=" + method)).timeout(BatchLoad.TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded").POST(body("Authorization="
                        + encode(authorization) + "&X-Experience-API-Version=1.0.3" + fields));
    }

    private HttpRequest.Builder as(String base, String pathAndQuery) {
        return HttpRequest.newBuilder(uri(base, pathAndQuery)).timeout(BatchLoad.TIMEOUT)
                .header("Authorization", authorization).header("X-Experience-API-Version", "2.0.0");
    }

    private HttpRequest.Builder asAdmin(String pathAndQuery) {
        return as(serve, pathAndQuery).setHeader("Authorization", admin);
    }

    private HttpResponse<String> send(HttpRequest.Builder r) throws Exception {
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String body) throws Exception {
        return FuzzCases.JSON.readTree(body);
    }

    private static URI uri(String base, String pathAndQuery) {
        return URI.create(base + pathAndQuery);
    }

    private static HttpRequest.BodyPublisher body(String s) {
        return HttpRequest.BodyPublishers.ofString(s, StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> expect(HttpResponse<String> r, int status) {
        if (r.statusCode() != status) {
            throw new IllegalStateException(r.request().method() + " " + r.request().uri() + ": expected " + status
                    + ", got " + r.statusCode() + " " + r.body());
        }
        return r;
    }
}
