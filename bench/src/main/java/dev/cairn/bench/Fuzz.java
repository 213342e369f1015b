package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.bench.FuzzRequest.DocWrite;
import dev.cairn.bench.FuzzRequest.Expect;
import dev.cairn.bench.RawHttp.Answer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bad-input fuzzer (issue 19): {@code --requests} cases against a running Cairn, each a valid request of some
 * resource and method mutated once ({@link FuzzCases}), sent on a raw socket of its own. A failure is a 5xx, a 4xx
 * without the JSON error body ({@code error}, {@code where}, {@code message}; HEAD excepted), no answer within
 * {@code --timeout}, a connection closed without a status line, a 2xx for a request the spec says must be refused, a
 * valid request refused, an injected response header, and any difference between the data the LRS holds after the run
 * and what its 2xx answers account for. Each failing request is written to {@code --out} as the bytes sent (replay:
 * {@code nc 127.0.0.1 PORT < request.http}).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.cairn.bench.Fuzz --url http://127.0.0.1:8080/xapi --credential KEY:SECRET
 *     [--requests 10000] [--seed N] [--pid SERVER_PID] [--out DIR] [--max-body 16777216] [--timeout 15000]
 *     [--concurrency 4] [--case N]
 * </pre>
 */
public final class Fuzz {
    /** Failures past this many per failure kind and mutation are counted but not written out. */
    private static final int WRITTEN_PER_KIND = 10;

    private final String host;
    private final int port;
    private final String credential;
    private final FuzzCases cases;
    private final int timeoutMillis;
    private final Path out;
    private final PrintStream log;

    private final Set<UUID> stored = ConcurrentHashMap.newKeySet();
    private final Set<UUID> refused = ConcurrentHashMap.newKeySet();
    private final Set<UUID> unanswered = ConcurrentHashMap.newKeySet();
    private final Map<String, DocState> documents = new ConcurrentHashMap<>();
    /** Unanswered POSTs of statements without ids: what they stored (if anything) has ids the fuzzer cannot know. */
    private final AtomicInteger unansweredWithoutIds = new AtomicInteger();
    private final AtomicInteger setupRequests = new AtomicInteger();
    private final AtomicInteger controls = new AtomicInteger();
    private final Report report = new Report();

    /** What the LRS should hold for a document the fuzzer wrote: absent, present (content known by SHA-1 or not). */
    private record DocState(boolean present, String sha1, boolean unknown, int lastCase) {
    }

    /** The run's counts; {@link #failures()} is what decides the exit code. */
    static final class Report {
        final Map<String, long[]> byResource = new TreeMap<>();
        final Map<String, long[]> byKind = new TreeMap<>();
        final Map<Integer, Long> statuses = new TreeMap<>();
        final Map<String, Long> failureCounts = new TreeMap<>();
        final Map<String, String> failureExamples = new TreeMap<>();
        /** Failures by kind and the mutation (or "setup", "none") of the request that failed. */
        final Map<String, Long> failuresByMutation = new TreeMap<>();
        final Map<String, Integer> written = new ConcurrentHashMap<>();
        final List<String> memory = new ArrayList<>();

        synchronized void count(FuzzRequest q, Answer a, String failure) {
            int col = a.status() < 0 ? 5 : Math.max(1, Math.min(4, a.status() / 100 - 1));
            for (long[] row : List.of(row(byResource, q.resource), row(byKind, q.kind))) {
                row[0]++;
                row[col]++;
                if (failure != null) {
                    row[6]++;
                }
            }
            statuses.merge(a.status(), 1L, Long::sum);
        }

        private static long[] row(Map<String, long[]> m, String key) {
            return m.computeIfAbsent(key, k -> new long[7]);
        }

        synchronized void fail(String kind, String example) {
            failureCounts.merge(kind, 1L, Long::sum);
            failureExamples.putIfAbsent(kind, example);
        }

        synchronized long failures() {
            return failureCounts.values().stream().mapToLong(Long::longValue).sum();
        }

        synchronized long failures(String kind) {
            return failureCounts.getOrDefault(kind, 0L);
        }
    }

    private Fuzz(URI url, String credential, FuzzCases cases, int timeoutMillis, Path out, PrintStream log) {
        this.host = url.getHost();
        this.port = url.getPort();
        this.credential = credential;
        this.cases = cases;
        this.timeoutMillis = timeoutMillis;
        this.out = out;
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        Report r = run(args, System.out);
        System.exit(r.failures() == 0 ? 0 : 1);
    }

    static Report run(String[] args, PrintStream log) throws Exception {
        Options o = Options.parse(args, "url", "http://127.0.0.1:8080/xapi", "credential", "", "requests", "10000",
                "seed", String.valueOf(System.currentTimeMillis()), "pid", "", "out", "fuzz-out", "max-body", "16777216",
                "timeout", "15000", "concurrency", "4", "case", "-1");
        URI url = URI.create(o.value("url"));
        if (!url.getPath().equals("/xapi") || url.getPort() < 0) {
            throw new IllegalArgumentException("--url must be http://HOST:PORT/xapi, got " + url);
        }
        String credential = o.value("credential");
        int colon = credential.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--credential KEY:SECRET is required");
        }
        long seed = o.longValue("seed");
        Path out = Path.of(o.value("out"));
        Files.createDirectories(out);
        FuzzCases cases = new FuzzCases(url.getHost() + ":" + url.getPort(), credential.substring(0, colon),
                credential.substring(colon + 1), o.longValue("max-body"), seed);
        Fuzz f = new Fuzz(url, credential, cases, o.intValue("timeout"), out, log);
        log.println(Machine.describe());
        log.printf("Fuzz: %s, seed %d, %d requests, %d at a time, timeout %d ms, max body %d, failures to %s%n", url,
                seed, o.intValue("requests"), o.intValue("concurrency"), o.intValue("timeout"), o.longValue("max-body"),
                out.toAbsolutePath());
        ServerProbe probe = new ServerProbe(url.getPort(), credential, o.value("pid"));
        f.report.memory.add(probe.memory("before"));
        Set<UUID> before = probe.statementIds();
        long started = System.nanoTime();
        int only = o.intValue("case");
        if (only >= 0) {
            f.runCase(only);
        } else {
            f.runAll(o.intValue("requests"), o.intValue("concurrency"));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (!probe.alive()) {
            f.report.fail("server down after the run", "GET /health/live got no 200 (or the --pid process is gone)");
        }
        f.report.memory.add(probe.memory("after"));
        f.checkData(probe, before);
        f.print(seconds, before.size());
        return f.report;
    }

    private void runAll(int n, int concurrency) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        for (int t = 0; t < concurrency; t++) {
            pool.execute(() -> {
                int i;
                while ((i = next.getAndIncrement()) < n) {
                    try {
                        runCase(i);
                    } catch (RuntimeException e) {
                        report.fail("fuzzer error", "case " + i + ": " + e + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
                    }
                    if ((i + 1) % 1000 == 0) {
                        log.printf("  %,d cases sent, %,d failures so far%n", i + 1, report.failures());
                    }
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(6, TimeUnit.HOURS)) {
            throw new IllegalStateException("the fuzzer's workers did not finish");
        }
    }

    private void runCase(int index) {
        FuzzCases.Case c;
        try {
            c = cases.generate(index);
        } catch (RuntimeException e) {
            throw new IllegalStateException("case " + index + " could not be generated", e);
        }
        List<Answer> answers = new ArrayList<>();
        List<FuzzRequest> sent = new ArrayList<>();
        boolean setupOk = true;
        for (FuzzRequest s : c.setup()) {
            setupRequests.incrementAndGet();
            Answer a = send(s);
            answers.add(a);
            sent.add(s);
            setupOk &= a.status() >= 200 && a.status() < 300;
            judge(index, s, a, true, sent, answers);
        }
        FuzzRequest main = c.main().apply(answers);
        if (main.kind.equals("none")) {
            controls.incrementAndGet();
        }
        Answer a = send(main);
        sent.add(main);
        answers.add(a);
        judge(index, main, a, setupOk, sent, answers);
    }

    private Answer send(FuzzRequest q) {
        try {
            return RawHttp.exchange(host, port, q.head, q.body, q.headMethod, timeoutMillis);
        } catch (IOException e) {
            return new Answer(-1, "could not connect: " + e.getMessage(), List.of(), new byte[0], 0, 0);
        }
    }

    /** Checks one answer, counts it, tracks what it stored, and writes it out when it failed. */
    private void judge(int index, FuzzRequest q, Answer a, boolean setupOk, List<FuzzRequest> sent, List<Answer> answers) {
        Expect expect = setupOk ? q.expect : Expect.ANY;
        String failure = failure(q, a, expect);
        report.count(q, a, failure);
        track(index, q, a);
        if (failure != null) {
            String where = write(index, failure, q, sent, answers);
            report.fail(failure, "case " + index + " (" + q.resource + ", " + q.kind + "): " + describe(a)
                    + (where == null ? "" : " — " + where));
            synchronized (report) {
                report.failuresByMutation.merge(failure + " | " + q.kind, 1L, Long::sum);
            }
        }
    }

    static String failure(FuzzRequest q, Answer a, Expect expect) {
        if (a.status() < 0) {
            String o = a.outcome();
            return o.startsWith(Answer.NO_ANSWER) ? "no answer" : o.startsWith(Answer.CLOSED)
                    ? "connection closed without a status line" : o.startsWith(Answer.BAD_STATUS) ? Answer.BAD_STATUS
                    : "could not connect";
        }
        if (a.outcome().equals(Answer.CUT)) {
            return "response cut short";
        }
        if (a.outcome().equals(Answer.BODY_TIMEOUT)) {
            return "response body not sent in full";
        }
        for (String h : a.headers()) {
            if (h.toLowerCase(java.util.Locale.ROOT).startsWith("x-injected")) {
                return "header injected into the response";
            }
        }
        int s = a.status();
        // a transfer coding the server does not know: RFC 9112 6.1 prescribes 501
        boolean spec501 = s == 501 && q.kind.equals("framing/transfer-coding-unknown");
        if (s >= 500 && !spec501) {
            return "5xx";
        }
        if ((s >= 400 || spec501) && !q.headMethod && !isJsonError(a.body())) {
            return "4xx without the JSON error body";
        }
        if (s >= 200 && s < 300 && expect == Expect.REFUSE) {
            return "2xx for a request the spec refuses";
        }
        if (expect == Expect.ACCEPT && (s < 200 || s >= 300) && s != 429) {
            return q.kind.equals("setup") ? "valid setup request refused" : "valid request refused";
        }
        return null;
    }

    static boolean isJsonError(byte[] body) {
        try {
            JsonNode n = FuzzCases.JSON.readTree(body);
            return n != null && n.isObject() && n.path("error").isTextual() && n.path("where").isTextual()
                    && n.path("message").isTextual();
        } catch (IOException e) {
            return false;
        }
    }

    private void track(int index, FuzzRequest q, Answer a) {
        boolean ok = a.status() >= 200 && a.status() < 300;
        if (ok) {
            stored.addAll(q.statementIds);
            if (q.statementPost) {
                try {
                    for (JsonNode id : FuzzCases.JSON.readTree(a.body())) {
                        stored.add(UUID.fromString(id.asText()));
                    }
                } catch (IOException | IllegalArgumentException e) {
                    report.fail("2xx statement POST without an array of ids", q.resource + " " + q.kind + ": " + a.text());
                }
            }
        } else if (a.status() >= 400) {
            refused.addAll(q.statementIds);
        } else {
            unanswered.addAll(q.statementIds);
            if (q.statementPost && q.statementIds.isEmpty()) {
                unansweredWithoutIds.incrementAndGet();
            }
        }
        for (DocWrite d : q.docs) {
            if (ok) {
                documents.put(d.address(), switch (d.effect()) {
                    case PUT -> new DocState(true, d.sha1(), false, index);
                    case MERGE -> new DocState(true, null, false, index);
                    case DELETE -> new DocState(false, null, false, index);
                    case UNKNOWN -> new DocState(false, null, true, index);
                });
            } else if (a.status() < 400) {
                documents.put(d.address(), new DocState(false, null, true, index)); // no answer: it may or may not be written
            }
        }
    }

    // ------------------------------------------------------------------------------------------- data check

    private void checkData(ServerProbe probe, Set<UUID> before) throws Exception {
        Set<UUID> after = probe.statementIds();
        Set<UUID> unexplained = new HashSet<>(after);
        unexplained.removeAll(before);
        unexplained.removeAll(stored);
        Set<UUID> storedUnanswered = new HashSet<>(unexplained);
        storedUnanswered.retainAll(unanswered);
        unexplained.removeAll(unanswered);
        Set<UUID> refusedStored = new HashSet<>(refused);
        refusedStored.removeAll(stored);
        refusedStored.retainAll(after);
        unexplained.removeAll(refusedStored);
        int voided = 0;
        int missing = 0;
        for (UUID id : stored) {
            if (!after.contains(id)) {
                if (probe.voided(id)) {
                    voided++;
                } else {
                    missing++;
                    report.fail("data: acknowledged statement not readable", "statementId " + id);
                }
            }
        }
        for (UUID id : before) {
            if (!after.contains(id) && !probe.voided(id)) {
                report.fail("data: statement held before the run is gone", "statementId " + id);
            }
        }
        for (UUID id : refusedStored) {
            report.fail("data: refused write stored anyway", "statementId " + id);
        }
        if (unexplained.size() > unansweredWithoutIds.get()) {
            for (UUID id : unexplained) {
                report.fail("data: statement no accepted write accounts for", "statementId " + id);
            }
        } else {
            storedUnanswered.addAll(unexplained);
            unexplained.clear();
        }
        Set<UUID> newlyStored = new HashSet<>(stored);
        newlyStored.removeAll(before);
        log.printf("%nData: %,d statements before, %,d after; the fuzzer's 2xx writes stored %,d new ones, %,d of them "
                        + "since voided by its voiding statements: expected %,d after, %s (%d acknowledged missing, %d refused "
                        + "but stored, %d unaccounted for; %d stored by the %d statements of writes that got no answer)%n",
                before.size(), after.size(), newlyStored.size(), voided, before.size() + newlyStored.size() - voided,
                after.size() == before.size() + newlyStored.size() - voided + storedUnanswered.size() && missing == 0
                        ? "as expected" : "MISMATCH",
                missing, refusedStored.size(), unexplained.size(), storedUnanswered.size(), unanswered.size());
        int present = 0;
        int absent = 0;
        int unknown = 0;
        int wrong = 0;
        for (Map.Entry<String, DocState> e : documents.entrySet()) {
            DocState want = e.getValue();
            if (want.unknown()) {
                unknown++;
                continue;
            }
            Answer r = probe.get(e.getKey());
            String etag = r.header("ETag");
            boolean ok = want.present() ? r.status() == 200 : r.status() == 404;
            if (ok && want.present() && want.sha1() != null) {
                ok = etag != null && etag.contains(want.sha1());
            }
            if (!ok) {
                wrong++;
                report.fail("data: document differs from what the 2xx answers wrote", e.getKey() + ": expected "
                        + (want.present() ? "present" + (want.sha1() == null ? "" : " with SHA-1 " + want.sha1()) : "absent")
                        + " (last written by case " + want.lastCase() + "), GET answered " + r.status() + " ETag " + etag);
            } else if (want.present()) {
                present++;
            } else {
                absent++;
            }
        }
        log.printf("Documents: the fuzzer touched %,d; %,d present and %,d absent as its 2xx answers say, %,d written by "
                + "requests whose effect it cannot model (not judged), %,d different%n", documents.size(), present, absent,
                unknown, wrong);
    }

    // ------------------------------------------------------------------------------------------------ output

    private String write(int index, String failure, FuzzRequest q, List<FuzzRequest> sent, List<Answer> answers) {
        String slug = failure.replaceAll("[^A-Za-z0-9]+", "-") + "_" + q.kind.replaceAll("[^A-Za-z0-9]+", "-");
        if (report.written.merge(slug, 1, Integer::sum) > WRITTEN_PER_KIND) {
            return null;
        }
        Path dir = out.resolve(String.format("%06d-%s", index, slug));
        try {
            Files.createDirectories(dir);
            StringBuilder readme = new StringBuilder();
            readme.append("case ").append(index).append(": ").append(q.resource).append(", mutation ").append(q.kind)
                    .append(", expected ").append(q.expect).append("\nfailure: ").append(failure).append("\n\n")
                    .append("Replay each request in order (the credential inside is the fuzzer's):\n");
            for (int i = 0; i < sent.size(); i++) {
                String name = i == sent.size() - 1 ? "request.http" : "setup-" + (i + 1) + ".http";
                try (OutputStream o = Files.newOutputStream(dir.resolve(name))) {
                    o.write(sent.get(i).head);
                    sent.get(i).body.writeTo(o);
                }
                readme.append("  nc -q 20 ").append(host).append(' ').append(port).append(" < ").append(name).append('\n');
                Answer a = answers.get(i);
                readme.append("    -> ").append(describe(a)).append('\n');
            }
            Answer last = answers.get(answers.size() - 1);
            readme.append("\nanswer headers:\n");
            last.headers().forEach(h -> readme.append("  ").append(h).append('\n'));
            readme.append("answer body (").append(last.bodyBytes()).append(" bytes):\n")
                    .append(new String(last.body(), 0, Math.min(last.body().length, 4096), StandardCharsets.UTF_8)).append('\n');
            Files.writeString(dir.resolve("README.txt"), readme);
            return dir.toString();
        } catch (IOException e) {
            return "could not write " + dir + ": " + e.getMessage();
        }
    }

    private static String describe(Answer a) {
        if (a.status() < 0) {
            return a.outcome() + " after " + a.nanos() / 1_000_000 + " ms";
        }
        String body = new String(a.body(), 0, Math.min(a.body().length, 160), StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        return a.status() + " " + (body.isEmpty() ? "(empty body)" : body);
    }

    private void print(double seconds, int before) {
        long total = report.byResource.values().stream().mapToLong(r -> r[0]).sum();
        log.printf("%n%,d requests in %.1f s (%,d cases: %,d mutated, %,d unmutated controls; %,d setup requests)%n", total,
                seconds, total - setupRequests.get(), total - setupRequests.get() - controls.get(), controls.get(),
                setupRequests.get());
        table("resource", report.byResource);
        table("mutation", report.byKind);
        log.printf("%n| status | count |%n|---:|---:|%n");
        report.statuses.forEach((s, n) -> log.printf("| %s | %,d |%n", s < 0 ? "none" : s, n));
        log.printf("%n| failure | count | first example |%n|---|---:|---|%n");
        if (report.failureCounts.isEmpty()) {
            log.println("| (none) | 0 | |");
        }
        report.failureCounts.forEach((k, n) -> log.printf("| %s | %,d | %s |%n", k, n,
                report.failureExamples.get(k).replace("|", "\\|")));
        if (!report.failuresByMutation.isEmpty()) {
            log.printf("%n| failure | of requests mutated by | count |%n|---|---|---:|%n");
            report.failuresByMutation.forEach((k, n) -> log.printf("| %s | %,d |%n", k, n));
        }
        log.println();
        report.memory.forEach(log::println);
        log.printf("%n%s: %,d failures%n", report.failures() == 0 ? "PASS" : "FAIL", report.failures());
    }

    private void table(String what, Map<String, long[]> rows) {
        log.printf("%n| %s | requests | 2xx | 3xx | 4xx | 5xx | no status | failures |%n|---|---:|---:|---:|---:|---:|---:|---:|%n", what);
        rows.forEach((k, r) -> log.printf("| %s | %,d | %,d | %,d | %,d | %,d | %,d | %,d |%n", k, r[0], r[1], r[2], r[3],
                r[4], r[5], r[6]));
    }
}
