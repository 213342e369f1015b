package dev.cairn.bench;

import static dev.cairn.bench.XapiClient.encode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.bench.MineCorpus.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The statements/read/mine scope under every way to read (issue 19; README "Credentials and scopes": such a
 * credential reads the statements stored under its own authority and no other, through every parameter, format and
 * more link). Two such credentials, A and B (with statements/write), made with {@code cairn credentials create}, and
 * the admin credential C (scope all) write statements that share everything a filter names ({@link MineCorpus});
 * then A and B each read in every way ({@link MineWalk}). Each row counts the responses that carried another
 * credential's statement or attachment (0 must), and compares every answer with what C gets, less the statements
 * of other authorities.
 */
final class ReadMine {
    private final String dialect;
    private final HttpClient http;
    private final String base;
    private final MineCorpus corpus;

    private ReadMine(String dialect, HttpClient http, String base, MineCorpus corpus) {
        this.dialect = dialect;
        this.http = http;
        this.base = base;
        this.corpus = corpus;
    }

    /** The rows of the "read-mine" group: {@code --mine-statements} ordinary statements per credential. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "read_mine");
             CairnProcess server = CairnProcess.serve(dir.resolve("data"), Invariants.CREDENTIAL,
                     Map.of("CAIRN_DB", db.url()))) {
            List<Writer> mine = new ArrayList<>();
            for (String name : List.of("A", "B")) {
                String key = "mine-" + name;
                String secret = "mine-secret-" + name + "-" + UUID.randomUUID();
                CairnProcess.credentials(dir, db.url(), "create", "--key", key, "--secret", secret, "--scope",
                        "statements/read/mine,statements/write");
                mine.add(new Writer(name, DurabilityTrials.basic(key + ":" + secret)));
            }
            Writer all = new Writer("C", DurabilityTrials.basic(Invariants.CREDENTIAL));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
            MineCorpus corpus = new MineCorpus(http, server.url(), mine, all).write(o.intValue("mine-statements"));
            ReadMine check = new ReadMine(dialect, http, server.url(), corpus);
            List<InvariantRow> rows = new ArrayList<>();
            for (Writer reader : mine) {
                rows.addAll(check.rows(reader));
            }
            return rows;
        }
    }

    private List<InvariantRow> rows(Writer reader) throws Exception {
        MineWalk walk = new MineWalk(http, base, corpus, reader);
        List<String> queries = queries();
        for (String q : queries) {
            walk.query(q);
        }
        for (UUID id : corpus.owner.keySet()) {
            walk.single(id);
        }
        List<String> others = new ArrayList<>();
        for (Writer other : corpus.writers()) {
            if (other != reader) {
                walk.moreOf(other);
                others.add(other.name());
            }
        }
        walk.moreOf(corpus.all());
        others.add(corpus.all().name());
        walk.alternate("");
        walk.alternate("verb=" + encode(corpus.verbs.get(0)));
        long own = corpus.owner.entrySet().stream().filter(e -> e.getValue() == reader
                && !corpus.voided.contains(e.getKey())).count();
        String as = "as " + reader.name() + " (statements/read/mine)";
        String borrowed = reader == corpus.writers().get(0) ? "; its statement " + corpus.borrowed + " naming "
                + corpus.writers().get(1).name() + "'s attachment by sha2 with a fileUrl and no part got "
                + corpus.borrowedStatus : "";
        InvariantRow leaks = new InvariantRow(dialect, as + ": " + queries.size() + " queries (each filter, related_*, "
                + "since, until, ascending, formats, attachments=true) whole, by limit=1 following every more link, "
                + "and HEAD; statementId and voidedStatementId of all " + corpus.owner.size() + " statements, GET "
                + "(also with attachments=true) and HEAD; " + String.join(" and ", others) + "'s more links; the "
                + "Alternate Request Syntax",
                "0 responses carry a statement or attachment of another credential",
                walk.leaking + " of " + walk.responses + " responses carried another credential's statement or "
                        + "attachment (" + walk.foreignStatements + " statements, " + walk.foreignAttachments
                        + " attachments)" + borrowed + first(walk.leaks),
                walk.leaking == 0 && walk.responses > 0);
        InvariantRow complete = new InvariantRow(dialect, as + ": every answer of the same walk against what C "
                + "(scope all) gets for it",
                "C's answer less others' statements, in order; statementId 200 for its own unvoided, voidedStatementId "
                        + "for its own voided, else 404 (HEAD alike); every one of its unvoided statements reached",
                walk.answeredAsExpected + " of " + walk.requests + " as expected; " + walk.reached.size() + " of "
                        + own + " unvoided own statements reached" + first(walk.unexpected),
                walk.answeredAsExpected == walk.requests && walk.reached.size() == own && own > 0);
        return List.of(leaks, complete);
    }

    private static String first(List<String> problems) {
        return problems.isEmpty() ? "" : "; first: " + String.join("; ", problems);
    }

    /** Every filter on every value the corpus shares, each way of related_*, since and until, order and formats. */
    private List<String> queries() throws Exception {
        List<String> q = new ArrayList<>(List.of("", "ascending=true", "format=ids", "format=exact",
                "format=canonical", "attachments=true"));
        for (String agent : corpus.agents) {
            q.add("agent=" + encode(agent));
            q.add("agent=" + encode(agent) + "&related_agents=true");
        }
        List<Writer> everyone = new ArrayList<>(corpus.writers());
        everyone.add(corpus.all());
        for (Writer w : everyone) {
            q.add("agent=" + encode(corpus.authority.get(w).toString()) + "&related_agents=true");
        }
        List<String> verbs = new ArrayList<>(corpus.verbs);
        verbs.addAll(List.of(MineCorpus.REFERRED, MineCorpus.VOIDED));
        for (String verb : verbs) {
            q.add("verb=" + encode(verb));
        }
        for (String activity : corpus.activities) {
            q.add("activity=" + encode(activity));
        }
        for (String activity : List.of(corpus.parents.get(0), corpus.parents.get(1), corpus.activities.get(0))) {
            q.add("activity=" + encode(activity) + "&related_activities=true");
        }
        for (String registration : corpus.registrations) {
            q.add("registration=" + registration);
        }
        String middle = stored(new ArrayList<>(corpus.owner.keySet()).get(corpus.owner.size() / 2));
        q.add("since=" + encode(middle));
        q.add("until=" + encode(middle));
        q.add("verb=" + encode(corpus.verbs.get(0)) + "&agent=" + encode(corpus.agents.get(0)) + "&ascending=true");
        q.add("verb=" + encode(MineCorpus.REFERRED) + "&format=ids&attachments=true");
        return q;
    }

    /** The stored time of a statement, as C reads it. */
    private String stored(UUID id) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/statements?"
                        + (corpus.voided.contains(id) ? "voidedStatementId=" : "statementId=") + id))
                .timeout(BatchLoad.TIMEOUT).header("Authorization", corpus.all().authorization())
                .header("X-Experience-API-Version", "2.0.0").GET().build(), HttpResponse.BodyHandlers.ofString());
        JsonNode s = FuzzCases.JSON.readTree(r.body());
        return s.path("stored").asText();
    }
}
