package dev.cairn.bench;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Revocation (issue 19; README "Credentials and scopes": a revoked credential is refused in every process within
 * 5 s). A credential with scope {@code all}, made with {@code cairn credentials create} beside a running
 * {@code cairn serve} and a {@code cairn query} on the same database, is used on every resource and method it may
 * use ({@link CredentialUses}); then {@code cairn credentials revoke} runs while the credential is in use. Every
 * request is sent again in rounds until two rounds in a row are refused: none may be answered later than 5 s after
 * the revocation, none after its first refusal, and no refused write may have changed anything.
 */
final class Revocation {
    static final long PROMISE_MILLIS = 5_000;
    /** The rounds stop this long after the revoke command started, whatever they saw (the row shows what). */
    private static final long POLL_MILLIS = 20_000;
    /** A pause between rounds, so that they sample the time without loading the server. */
    private static final long ROUND_PAUSE_MILLIS = 20;
    private static final String KEY = "revoked-key";
    private static final String CREDENTIAL = KEY + ":revoked-secret-1";

    private final String dialect;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    private final CredentialUses uses;
    /** Each process's xAPI base URL, by name. */
    private final Map<String, String> processes = new LinkedHashMap<>();

    private Revocation(String dialect, String serve, String query) {
        this.dialect = dialect;
        this.uses = new CredentialUses(http, serve, DurabilityTrials.basic(Invariants.CREDENTIAL),
                DurabilityTrials.basic(CREDENTIAL), UUID.randomUUID().toString());
        processes.put("serve", serve);
        processes.put("query", query);
    }

    /** The rows of the "revocation" group. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "revocation")) {
            Path data = dir.resolve("data");
            Map<String, String> settings = Map.of("CAIRN_DB", db.url());
            try (CairnProcess serve = CairnProcess.serve(data, Invariants.CREDENTIAL, settings);
                 CairnProcess query = CairnProcess.start("query", CairnProcess.freePort(), data, Invariants.CREDENTIAL, settings)) {
                String[] ks = CREDENTIAL.split(":", 2);
                CairnProcess.credentials(dir, db.url(), "create", "--key", ks[0], "--secret", ks[1], "--scope", "all");
                return new Revocation(dialect, serve.url(), query.url()).run(dir, db.url(), serve.url());
            }
        }
    }

    /** What one use of the credential in one process saw over the rounds. */
    private static final class Seen {
        /** When the last request answered 2xx, and the first refused, were sent (epoch ms; -1 for none). */
        long lastAnsweredMillis = -1;
        long firstRefusalMillis = -1;
        int answeredAfterRefusal;
        final Map<Integer, Integer> statuses = new TreeMap<>();
    }

    private List<InvariantRow> run(Path dir, String db, String serve) throws Exception {
        uses.prepare(0);
        Map<String, Seen> seen = new LinkedHashMap<>();
        List<String> before = new ArrayList<>();
        round(0, seen, before);
        // The rounds go on while the command runs, as the credential's clients would.
        long started = System.currentTimeMillis();
        CompletableFuture<String> revoke = CompletableFuture.supplyAsync(() -> {
            try {
                return CairnProcess.credentials(dir, db, "revoke", KEY);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        int rounds = 0;
        int refusedRounds = 0;
        while (!(revoke.isDone() && refusedRounds >= 2) && System.currentTimeMillis() < started + POLL_MILLIS) {
            rounds++;
            uses.prepare(rounds);
            refusedRounds = round(rounds, seen, null) ? refusedRounds + 1 : 0;
            Thread.sleep(ROUND_PAUSE_MILLIS);
        }
        long revokedAt = revokedAt(revoke.get(POLL_MILLIS, TimeUnit.MILLISECONDS));
        new BatchAudit(DurabilityTrials.basic(Invariants.CREDENTIAL)).awaitProjected(serve);
        return List.of(refusals(seen, before, revokedAt, rounds, refusedRounds >= 2), writes(seen));
    }

    /** The moment {@code cairn credentials revoke} printed, after the credential was deleted. */
    private static long revokedAt(String output) {
        for (String line : output.split("\n")) {
            if (line.startsWith("revoked " + KEY + " at ")) {
                return Instant.parse(line.substring(line.lastIndexOf(' ') + 1).strip()).toEpochMilli();
            }
        }
        throw new IllegalStateException("cairn credentials revoke printed no time: " + output);
    }

    /**
     * Sends every use once to every process that serves it. Round 0 comes before the revocation and must be answered
     * (its refusals go to {@code before}); later ones record the first refusal of each. Returns whether all were
     * refused.
     */
    private boolean round(int round, Map<String, Seen> seen, List<String> before) throws Exception {
        boolean all = true;
        for (CredentialUses.Use use : uses.all()) {
            for (Map.Entry<String, String> p : processes.entrySet()) {
                if (use.write() && !p.getKey().equals("serve")) {
                    continue; // a query process answers writes with 405 whoever sends them
                }
                long at = System.currentTimeMillis();
                HttpResponse<String> r = http.send(use.request(p.getValue(), round).build(),
                        HttpResponse.BodyHandlers.ofString());
                int status = r.statusCode();
                Seen s = seen.computeIfAbsent(use.name() + " (" + p.getKey() + ")", k -> new Seen());
                s.statuses.put(round, status);
                boolean refused = status == 401 || status == 429;
                all &= refused;
                if (round == 0) {
                    if (status / 100 != 2) {
                        before.add(use.name() + " (" + p.getKey() + ") got " + status + " " + r.body());
                    }
                } else if (refused && s.firstRefusalMillis < 0) {
                    s.firstRefusalMillis = at;
                } else if (!refused && s.firstRefusalMillis >= 0) {
                    s.answeredAfterRefusal++;
                }
                if (round > 0 && status / 100 == 2) {
                    s.lastAnsweredMillis = at;
                }
            }
        }
        return all;
    }

    /**
     * The promise is broken by a request answered more than 5 s after the revocation; when each use was first refused
     * depends on how often the rounds sample it, so it is shown, not held to the promise.
     */
    private InvariantRow refusals(Map<String, Seen> seen, List<String> before, long revokedAt, int rounds,
                                  boolean allRefused) {
        Map<String, Long> lastAnswered = new TreeMap<>();
        Map<String, Long> allRefusedBy = new TreeMap<>();
        Map<Integer, Integer> after = new TreeMap<>();
        String latestUse = "";
        long latest = Long.MIN_VALUE;
        int answeredAfter = 0;
        List<String> never = new ArrayList<>();
        for (Map.Entry<String, Seen> e : seen.entrySet()) {
            Seen s = e.getValue();
            s.statuses.forEach((round, status) -> {
                if (round > 0) {
                    after.merge(status, 1, Integer::sum);
                }
            });
            answeredAfter += s.answeredAfterRefusal;
            String process = e.getKey().substring(e.getKey().lastIndexOf('(') + 1, e.getKey().length() - 1);
            if (s.lastAnsweredMillis >= 0) {
                long answered = s.lastAnsweredMillis - revokedAt;
                lastAnswered.merge(process, answered, Math::max);
                if (answered > latest) {
                    latest = answered;
                    latestUse = e.getKey();
                }
            }
            if (s.firstRefusalMillis < 0) {
                never.add(e.getKey());
            } else {
                allRefusedBy.merge(process, s.firstRefusalMillis - revokedAt, Math::max);
            }
        }
        boolean holds = before.isEmpty() && never.isEmpty() && allRefused && answeredAfter == 0
                && latest <= PROMISE_MILLIS
                && after.keySet().stream().allMatch(s -> s / 100 == 2 || s == 401 || s == 429);
        return new InvariantRow(dialect, "a credential with scope all, made by cairn credentials create, on "
                + seen.size() + " requests (" + uses.all().size() + " resources and methods in cairn serve, the reads "
                + "also in a cairn query beside it); cairn credentials revoke while in use, the requests repeated",
                "2xx before; none answered later than " + PROMISE_MILLIS / 1000 + " s after the revocation, all "
                        + "refused (401, 429 once the key's failures pass " + PasswordGuessing.BURST + ") and none "
                        + "answered after its first refusal",
                (before.isEmpty() ? "all 2xx before" : before.size() + " not 2xx before: " + before.get(0))
                        + "; last answered " + times(lastAnswered) + " after it (" + latestUse + "), all refused by "
                        + times(allRefusedBy) + "; " + rounds + " rounds from the revoke command on: " + statuses(after)
                        + "; " + answeredAfter + " answered after a refusal"
                        + (never.isEmpty() ? "" : "; never refused: " + never), holds);
    }

    private static String times(Map<String, Long> byProcess) {
        List<String> times = new ArrayList<>();
        byProcess.forEach((process, millis) -> times.add(process + " " + PasswordGuessing.seconds(millis * 1e6)));
        return String.join(", ", times);
    }

    /** Every write of every round as it was answered: a refused one changed nothing, an accepted one took effect. */
    private InvariantRow writes(Map<String, Seen> seen) throws Exception {
        int refused = 0;
        int refusedApplied = 0;
        int accepted = 0;
        int acceptedMissing = 0;
        for (CredentialUses.Use use : uses.all()) {
            if (!use.write()) {
                continue;
            }
            for (Map.Entry<Integer, Integer> e : seen.get(use.name() + " (serve)").statuses.entrySet()) {
                boolean applied = use.applied().in(e.getKey());
                if (e.getValue() / 100 == 2) {
                    accepted++;
                    acceptedMissing += applied ? 0 : 1;
                } else {
                    refused++;
                    refusedApplied += applied ? 1 : 0;
                }
            }
        }
        return new InvariantRow(dialect, "the revoked credential's writes (statements PUT, POST and in the Alternate "
                + "Request Syntax; documents PUT, POST and DELETE), read back with another credential",
                "0 refused writes took effect", refused + " refused: " + refusedApplied + " took effect; " + accepted
                        + " accepted before the refusal: " + (accepted - acceptedMissing) + " took effect",
                refused > 0 && refusedApplied == 0 && acceptedMissing == 0);
    }

    private static String statuses(Map<Integer, Integer> counts) {
        List<String> parts = new ArrayList<>();
        counts.forEach((status, n) -> parts.add(n + " × " + status));
        return String.join(", ", parts);
    }
}
