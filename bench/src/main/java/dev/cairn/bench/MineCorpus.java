package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The statements of the read/mine check ({@link ReadMine}), written over HTTP by several credentials that share
 * everything a filter can name: agents (as actor, instructor and inside SubStatements), verbs, activities (as object
 * and as parent), registrations. Besides, each writes StatementRefs to the others' statements, statements with
 * attachments of its own, voids one of its own; the credential with scope all voids one of each other's; the
 * others' statements claim another's authority; and the first writer voids an id before another writer stores a
 * statement with it. What the harness sent is its record of who stored what.
 */
final class MineCorpus {
    /** A credential that writes (and later reads): its name in the rows and its Authorization header value. */
    record Writer(String name, String authorization) {
    }

    static final String VOIDED = "http://adlnet.gov/expapi/verbs/voided";
    static final String REFERRED = "http://example.com/verbs/referred";
    private static final String USAGE = "http://example.com/attachment-usage/note";

    final List<String> agents = List.of(agent("learner-0"), agent("learner-1"), agent("learner-2"));
    final List<String> verbs = List.of("http://adlnet.gov/expapi/verbs/attempted",
            "http://adlnet.gov/expapi/verbs/completed", "http://adlnet.gov/expapi/verbs/experienced");
    final List<String> activities = List.of("http://example.com/course/a", "http://example.com/course/b",
            "http://example.com/course/c");
    final List<String> parents = List.of("http://example.com/program/1", "http://example.com/program/2");
    final List<String> registrations = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString());

    /** Who sent each statement stored, by id. */
    final Map<UUID, Writer> owner = new LinkedHashMap<>();
    /** The statements voided (by their own writer or by the credential with scope all). */
    final Set<UUID> voided = new HashSet<>();
    /** The sha2 of the attachments each writer sent. */
    final Map<Writer, Set<String>> attachments = new HashMap<>();
    /** The authority each writer's statements are stored under, as the server returns it. */
    final Map<Writer, JsonNode> authority = new HashMap<>();
    /**
     * What the server answered to the first writer's statement that names another's attachment by its sha2 with a
     * fileUrl and sends no part (the attachment is stored by sha2 once, whoever sent it), and that statement's id.
     */
    int borrowedStatus;
    UUID borrowed;

    private final HttpClient http;
    private final String base;
    private final List<Writer> writers;
    private final Writer all;

    /**
     * @param writers the credentials that read only their own statements, the first of them the one whose authority
     *                the others claim
     * @param all     a credential with scope all, which also writes
     */
    MineCorpus(HttpClient http, String base, List<Writer> writers, Writer all) {
        this.http = http;
        this.base = base;
        this.writers = writers;
        this.all = all;
    }

    /** Writes {@code perWriter} ordinary statements for each credential, interleaved, and everything else. */
    MineCorpus write(int perWriter) throws Exception {
        if (perWriter < 3) { // two are referred to, one voided by its writer and another by the credential with all
            throw new IllegalArgumentException("--mine-statements must be at least 3, not " + perWriter);
        }
        List<Writer> everyone = new ArrayList<>(writers);
        everyone.add(all);
        Map<Writer, List<UUID>> own = new HashMap<>();
        for (int i = 0; i < perWriter; i++) {
            for (int w = 0; w < everyone.size(); w++) {
                Writer writer = everyone.get(w);
                UUID id = post(writer, ordinary(i, w));
                own.computeIfAbsent(writer, k -> new ArrayList<>()).add(id);
                if (i == 0) {
                    authority.put(writer, read(id).path("authority"));
                }
            }
        }
        Writer first = writers.get(0);
        UUID early = UUID.randomUUID();
        post(first, ref(VOIDED, early)); // voids a statement not stored yet, which another writer then stores
        for (Writer writer : everyone) {
            for (Writer other : everyone) {
                if (other != writer) {
                    post(writer, ref(REFERRED, own.get(other).get(1)));
                    post(writer, ref(REFERRED, own.get(other).get(perWriter - 1)));
                }
            }
            post(writer, subStatement(everyone.indexOf(writer)));
            for (int n = 0; n < 2; n++) {
                attach(writer, n);
            }
            if (writer != first) {
                ObjectNode claim = ordinary(perWriter, everyone.indexOf(writer));
                claim.set("authority", authority.get(first).deepCopy()); // the server stamps its own authority
                post(writer, claim);
            }
            voidStatement(writer, own.get(writer).get(0));
        }
        for (Writer writer : writers) {
            voidStatement(all, own.get(writer).get(perWriter - 1));
        }
        ObjectNode late = ordinary(perWriter + 1, 1);
        late.put("id", early.toString());
        post(writers.get(1), late);
        borrow(first, attachments.get(writers.get(1)).iterator().next());
        return this;
    }

    /** The writers that read only their own statements. */
    List<Writer> writers() {
        return writers;
    }

    Writer all() {
        return all;
    }

    private ObjectNode ordinary(int i, int w) {
        ObjectNode s = FuzzCases.JSON.createObjectNode();
        s.set("actor", json(agents.get(i % agents.size())));
        s.putObject("verb").put("id", verbs.get((i / agents.size() + w) % verbs.size()));
        s.putObject("object").put("id", activities.get((i + w) % activities.size()));
        ObjectNode context = s.putObject("context");
        context.put("registration", registrations.get(i % registrations.size()));
        context.set("instructor", json(agents.get((i + 1) % agents.size())));
        context.putObject("contextActivities").putArray("parent").addObject()
                .put("id", parents.get(i % parents.size()));
        return s;
    }

    private ObjectNode ref(String verb, UUID target) {
        ObjectNode s = FuzzCases.JSON.createObjectNode();
        s.set("actor", json(agents.get(0)));
        s.putObject("verb").put("id", verb);
        s.putObject("object").put("objectType", "StatementRef").put("id", target.toString());
        return s;
    }

    private ObjectNode subStatement(int w) {
        ObjectNode s = ordinary(w, w);
        ObjectNode sub = FuzzCases.JSON.createObjectNode().put("objectType", "SubStatement");
        sub.set("actor", json(agents.get((w + 2) % agents.size())));
        sub.putObject("verb").put("id", verbs.get(w % verbs.size()));
        sub.putObject("object").put("id", activities.get((w + 1) % activities.size()));
        s.set("object", sub);
        return s;
    }

    private void voidStatement(Writer writer, UUID target) throws Exception {
        post(writer, ref(VOIDED, target));
        voided.add(target);
    }

    /** A statement with an attachment whose content is the writer's own, sent as multipart/mixed. */
    private void attach(Writer writer, int n) throws Exception {
        byte[] content = ("a note of " + writer.name() + " #" + n + " " + UUID.randomUUID())
                .getBytes(StandardCharsets.UTF_8);
        String sha2 = HexFormat.of().formatHex(FuzzCases.sha256(content));
        ObjectNode s = ordinary(n, writers.indexOf(writer) + 1);
        UUID id = UUID.randomUUID();
        s.put("id", id.toString());
        s.putArray("attachments").add(attachment(sha2, content.length));
        HttpResponse<String> r = send(writer, HttpRequest.newBuilder(URI.create(base + "/statements"))
                .header("Content-Type", "multipart/mixed; boundary=" + FuzzCases.BOUNDARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(FuzzCases.multipartBody(
                        FuzzCases.JSON.writeValueAsBytes(s), "text/plain", sha2, content, true))));
        expect(r, 200);
        owner.put(id, writer);
        attachments.computeIfAbsent(writer, k -> new HashSet<>()).add(sha2);
    }

    /**
     * The writer's statement names {@code sha2}, another's attachment, with a fileUrl and no part: a fileUrl needs
     * none, so it may be stored; whether the other's bytes then come back with it is for {@link MineWalk} to see.
     */
    private void borrow(Writer writer, String sha2) throws Exception {
        ObjectNode s = ordinary(0, 0);
        borrowed = UUID.randomUUID();
        s.put("id", borrowed.toString());
        s.putArray("attachments").add(attachment(sha2, 1).put("fileUrl", "http://example.com/elsewhere"));
        HttpResponse<String> r = send(writer, HttpRequest.newBuilder(URI.create(base + "/statements"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(FuzzCases.JSON.writeValueAsBytes(s))));
        borrowedStatus = r.statusCode();
        if (r.statusCode() == 200) {
            owner.put(borrowed, writer);
        }
    }

    private static ObjectNode attachment(String sha2, int length) {
        ObjectNode a = FuzzCases.JSON.createObjectNode();
        a.put("usageType", USAGE);
        a.putObject("display").put("en-US", "a note");
        a.put("contentType", "text/plain");
        a.put("length", length);
        a.put("sha2", sha2);
        return a;
    }

    /** POSTs one statement as {@code writer} and records it as the writer's. */
    private UUID post(Writer writer, ObjectNode statement) throws Exception {
        UUID id = statement.has("id") ? UUID.fromString(statement.get("id").asText()) : UUID.randomUUID();
        statement.put("id", id.toString());
        HttpResponse<String> r = send(writer, HttpRequest.newBuilder(URI.create(base + "/statements"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(FuzzCases.JSON.writeValueAsBytes(statement))));
        expect(r, 200);
        owner.put(id, writer);
        return id;
    }

    private JsonNode read(UUID id) throws Exception {
        return FuzzCases.JSON.readTree(expect(send(all, HttpRequest.newBuilder(URI.create(base
                + "/statements?statementId=" + id)).GET()), 200).body());
    }

    private HttpResponse<String> send(Writer writer, HttpRequest.Builder r) throws Exception {
        return http.send(r.timeout(BatchLoad.TIMEOUT).header("Authorization", writer.authorization())
                .header("X-Experience-API-Version", "2.0.0").build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> expect(HttpResponse<String> r, int status) {
        if (r.statusCode() != status) {
            throw new IllegalStateException(r.request().method() + " " + r.request().uri() + ": expected " + status
                    + ", got " + r.statusCode() + " " + r.body());
        }
        return r;
    }

    static String agent(String name) {
        return "{\"mbox\":\"mailto:" + name + "@example.com\"}";
    }

    private static JsonNode json(String s) {
        try {
            return FuzzCases.JSON.readTree(s);
        } catch (IOException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
