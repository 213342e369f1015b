package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.bench.MineCorpus.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Every way one statements/read/mine credential can read statements, each response checked for statements and
 * attachments that are not its own ({@link MineCorpus} says whose is whose), and each answer compared with what a
 * credential with scope all gets for the same request, less the statements of other authorities.
 */
final class MineWalk {
    /** No walk of more links goes on past this many pages. */
    private static final int MAX_PAGES = 10_000;

    private final HttpClient http;
    private final String base;
    private final MineCorpus corpus;
    private final Writer reader;

    int responses;
    int leaking;
    int foreignStatements;
    int foreignAttachments;
    int requests;
    int answeredAsExpected;
    /** Its own unvoided statements that some list or single answer returned. */
    final Set<UUID> reached = new HashSet<>();
    /** The first responses that carried others' statements or attachments, and the first answers not as expected. */
    final List<String> leaks = new ArrayList<>();
    final List<String> unexpected = new ArrayList<>();

    MineWalk(HttpClient http, String base, MineCorpus corpus, Writer reader) {
        this.http = http;
        this.base = base;
        this.corpus = corpus;
        this.reader = reader;
    }

    /** What one response held: statement ids, the hashes of its attachment parts, its more link. */
    private record Page(List<UUID> ids, List<String> hashes, String more) {
    }

    /**
     * GET /statements?{@code query} whole (with its more links), then with limit=1 following every more link, and
     * HEAD: each must hold exactly what the credential with scope all gets for it, less others' statements.
     */
    void query(String query) throws Exception {
        List<UUID> expected = expected(query);
        compare("GET ?" + query, expected, pages(reader, "/statements?" + query, true));
        compare("GET ?" + query + "&limit=1 and its more links", expected,
                pages(reader, "/statements?" + query + (query.isEmpty() ? "" : "&") + "limit=1", true));
        head("/statements?" + query, 200);
    }

    /** GET and HEAD by statementId and by voidedStatementId, with attachments too: 200 only for its own. */
    void single(UUID id) throws Exception {
        boolean own = corpus.owner.get(id) == reader;
        boolean voided = corpus.voided.contains(id);
        for (String parameter : List.of("statementId", "voidedStatementId")) {
            int expected = own && voided == parameter.equals("voidedStatementId") ? 200 : 404;
            for (String more : List.of("", "&attachments=true")) {
                String target = "/statements?" + parameter + "=" + id + more;
                HttpResponse<byte[]> r = send(reader, "GET", target);
                Page p = read(r, "GET ?" + parameter + "=" + id + more);
                status("GET ?" + parameter + "=" + id + more, r, expected);
                if (r.statusCode() == 200 && !p.ids.equals(List.of(id))) {
                    note(unexpected, "GET ?" + parameter + "=" + id + more + " returned " + p.ids);
                }
            }
            head("/statements?" + parameter + "=" + id, expected);
        }
    }

    /** Another credential's more link (from its first page of one), followed to the end by this one. */
    void moreOf(Writer other) throws Exception {
        Page first = read(send(other, "GET", "/statements?limit=1"), null);
        if (!first.more.isEmpty()) {
            pages(reader, first.more.substring("/xapi".length()), true);
        }
    }

    /** The Alternate Request Syntax (1.0.3): the credential and the parameters in a form. */
    void alternate(String query) throws Exception {
        List<UUID> expected = expected(query);
        HttpRequest form = HttpRequest.newBuilder(URI.create(base + "/statements?method=GET"))
                .timeout(BatchLoad.TIMEOUT).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Authorization="
                        + XapiClient.encode(reader.authorization()) + "&X-Experience-API-Version=1.0.3&limit=0"
                        + (query.isEmpty() ? "" : "&" + query))).build();
        HttpResponse<byte[]> r = http.send(form, HttpResponse.BodyHandlers.ofByteArray());
        compare("Alternate Request Syntax GET ?" + query, expected, read(r, "Alternate Request Syntax ?" + query).ids);
    }

    /** What the credential with scope all gets for the query, less the statements this reader did not store. */
    private List<UUID> expected(String query) throws Exception {
        List<UUID> expected = new ArrayList<>();
        for (UUID id : pages(corpus.all(), "/statements?" + query, false)) {
            if (corpus.owner.get(id) == reader) {
                expected.add(id);
            }
        }
        return expected;
    }

    private void compare(String what, List<UUID> expected, List<UUID> got) {
        requests++;
        if (got.equals(expected)) {
            answeredAsExpected++;
        } else {
            note(unexpected, what + ": expected " + expected.size() + " statements, got " + got.size());
        }
    }

    /** A HEAD has no body to leak, but its status must not tell what a GET would not. */
    private void head(String target, int expected) throws Exception {
        responses++;
        status("HEAD " + target, send(reader, "HEAD", target), expected);
    }

    private void status(String what, HttpResponse<byte[]> r, int expected) {
        requests++;
        if (r.statusCode() == expected) {
            answeredAsExpected++;
        } else {
            note(unexpected, what + ": expected " + expected + ", got " + r.statusCode());
        }
    }

    private static void note(List<String> list, String p) {
        if (list.size() < 3) {
            list.add(p);
        }
    }

    /** Every statement id of a query and its more links, in order, as {@code as} reads them. */
    private List<UUID> pages(Writer as, String target, boolean check) throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int n = 0; n < MAX_PAGES && !target.isEmpty(); n++) {
            HttpResponse<byte[]> r = send(as, "GET", target);
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + target + " as " + as.name() + ": " + r.statusCode() + " "
                        + new String(r.body(), StandardCharsets.UTF_8));
            }
            Page p = read(r, check ? target : null);
            ids.addAll(p.ids);
            target = p.more.isEmpty() ? "" : p.more.substring("/xapi".length());
        }
        return ids;
    }

    /**
     * The statements and attachment parts of a response (a StatementResult, one statement, or either in
     * multipart/mixed); when {@code checked} names the request, the response counts and is checked for others'
     * statements and attachments.
     */
    private Page read(HttpResponse<byte[]> r, String checked) throws Exception {
        List<UUID> ids = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        String more = "";
        if (r.statusCode() == 200) {
            String type = r.headers().firstValue("Content-Type").orElse("");
            String json = new String(r.body(), StandardCharsets.ISO_8859_1);
            if (type.startsWith("multipart/mixed")) {
                String boundary = type.substring(type.indexOf("boundary=") + 9).replace("\"", "").strip();
                String[] parts = json.split("--" + Pattern.quote(boundary));
                json = body(parts[1]);
                for (int i = 2; i < parts.length; i++) {
                    String hash = header(parts[i], "X-Experience-API-Hash");
                    if (hash != null) {
                        hashes.add(hash.toLowerCase(Locale.ROOT));
                    }
                }
            }
            JsonNode node = FuzzCases.JSON.readTree(json.getBytes(StandardCharsets.ISO_8859_1));
            if (node.has("statements")) {
                for (JsonNode s : node.get("statements")) {
                    ids.add(UUID.fromString(s.path("id").asText()));
                }
                more = node.path("more").asText("");
            } else {
                ids.add(UUID.fromString(node.path("id").asText()));
            }
        }
        if (checked != null) {
            responses++;
            int statements = (int) ids.stream().filter(id -> corpus.owner.get(id) != reader).count();
            Set<String> own = corpus.attachments.getOrDefault(reader, Set.of());
            int parts = (int) hashes.stream().filter(h -> !own.contains(h)).count();
            foreignStatements += statements;
            foreignAttachments += parts;
            if (statements + parts > 0) {
                leaking++;
                note(leaks, checked + " carried " + statements + " statements and " + parts + " attachments of others");
            }
            ids.stream().filter(id -> corpus.owner.get(id) == reader && !corpus.voided.contains(id))
                    .forEach(reached::add);
        }
        return new Page(ids, hashes, more);
    }

    private static String body(String part) {
        int start = part.indexOf("\r\n\r\n");
        return start < 0 ? "" : part.substring(start + 4).strip();
    }

    private static String header(String part, String name) {
        int end = part.indexOf("\r\n\r\n");
        for (String line : part.substring(0, Math.max(0, end)).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    private HttpResponse<byte[]> send(Writer as, String method, String target) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + target)).timeout(BatchLoad.TIMEOUT)
                .header("Authorization", as.authorization()).header("X-Experience-API-Version", "2.0.0")
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
