package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP benchmarks (the rows of a published .NET LRS benchmark, issue 5) over real HTTP on loopback against
 * {@code cairn serve} processes of their own ({@link CairnProcess}), per dialect:
 * <ul>
 *   <li><b>reads</b>: one server per data set ({@link Dataset}: statement count × StatementRef share), all running at
 *       once; each query is sent to every server in turn, round after round, so that the ratios between data sets are
 *       measured side by side and the shared machine's drift cancels out;</li>
 *   <li><b>writes</b>: a server on an empty database and log: POST one statement, POST a batch of 100, and
 *       {@code --writers} concurrent writers of single statements with {@code ack=visible} (the default) and with
 *       {@code X-Cairn-Ack: durable}, with the server's CPU per statement (all its threads, from /proc) and the disk's
 *       own synchronous-write latency ({@link DiskProbe}) measured in the same run.</li>
 * </ul>
 * The load generator ({@link LoopbackClient}) runs in this JVM, a process of its own as clients' traffic is, and
 * shares the machine's cores with the servers.
 *
 * <pre>
 * java @jvm.options -Xmx2g -cp bench/target/benchmarks.jar dev.cairn.bench.HttpBench [--dialects sqlite,postgresql]
 *     [--sets 0:10000,10:10000,0:100000,10:100000,10:1000000] [--rounds 400] [--parts reads,writes]
 *     [--writers 1,4,8]
 * </pre>
 */
public final class HttpBench {
    static final String CREDENTIAL = "bench:bench";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "data", "/tmp/cairn-bench-data", "dialects", "sqlite,postgresql",
                "sets", "0:10000,1:10000,10:10000,0:100000,1:100000,10:100000,10:1000000", "rounds", "400",
                "warmup", "100", "parts", "reads,writes", "posts", "2000", "batches", "200", "writer-seconds", "5", "writers", "1,4,8",
                "write-warmup-seconds", "20");
        System.out.println(Machine.describe());
        Path base = Path.of(o.value("data"));
        for (String dialect : o.list("dialects")) {
            if (o.list("parts").contains("reads")) {
                List<String> specs = o.list("sets").stream().map(s -> dialect + ":" + s).toList();
                reads(base, Datasets.parse(base, specs), o.intValue("warmup"), o.intValue("rounds"));
            }
            if (o.list("parts").contains("writes")) {
                WriteBench.writes(base, dialect, o.intValue("write-warmup-seconds"), o.intValue("posts"),
                        o.intValue("batches"), o.intValue("writer-seconds"),
                        o.list("writers").stream().mapToInt(Integer::parseInt).toArray());
            }
        }
    }

    /** A {@code cairn serve} in a child JVM on {@code db} and the log in {@code log}. */
    static CairnProcess start(String db, Path log, Path data) throws Exception {
        return CairnProcess.serve(data, CREDENTIAL, Map.of("CAIRN_DB", db, "CAIRN_LOG", log.toString(),
                "CAIRN_PROJECTOR_BATCH", String.valueOf(Dataset.PROJECTOR_BATCH)));
    }

    // ---------------------------------------------------------------------------------------------- reads

    /** A server of a data set; {@code bothFull}: its page of both filters holds 100 statements (small sets hold fewer). */
    private record Server(Dataset set, CairnProcess cairn, LoopbackClient client, String more, boolean bothFull) {
    }

    private enum Query {
        BY_ID("GET statementId=…"),
        VERB("GET verb=…&limit=100 (first page)"),
        VERB_IDS("GET verb=…&limit=100&format=ids (first page, built per request)"),
        MORE("GET its more link (second page)"),
        ABSENT_VERB("GET verb no statement has"),
        AGENT_RELATED("GET agent=…&related_agents=true&limit=100"),
        VERB_AND_AGENT("GET verb=…&agent=…&related_agents=true&limit=100 (both filters: 0.25% of statements)");

        final String label;

        Query(String label) {
            this.label = label;
        }
    }

    private static final String VERB_PAGE = "/xapi/statements?limit=100&verb=" + enc(StatementCorpus.HOT_VERB);
    private static final String ABSENT_PAGE = "/xapi/statements?limit=100&verb=" + enc(StatementCorpus.ABSENT_VERB);
    private static final String AGENT_PAGE = "/xapi/statements?limit=100&related_agents=true&agent="
            + enc("{\"mbox\":\"" + StatementCorpus.HOT_LEARNER + "\"}");
    private static final String VERB_AND_AGENT_PAGE = AGENT_PAGE + "&verb=" + enc(StatementCorpus.HOT_VERB);

    private static void reads(Path base, List<Dataset> sets, int warmup, int rounds) throws Exception {
        for (Dataset d : sets) {
            d.ensure();
        }
        List<Server> servers = new ArrayList<>();
        try {
            for (Dataset d : sets) {
                CairnProcess cairn = start(d.database(false).url(), d.logDir(),
                        base.resolve("serve-" + d.dialect() + "-" + d.name()));
                servers.add(new Server(d, cairn, null, null, false));
                LoopbackClient client = new LoopbackClient(cairn.port(), CREDENTIAL);
                String more = check(d, client);
                boolean bothFull = JSON.readTree(ok(client.get(VERB_AND_AGENT_PAGE), "both filters").body())
                        .get("statements").size() == 100;
                servers.set(servers.size() - 1, new Server(d, cairn, client, more, bothFull));
            }
            String dialect = sets.get(0).dialect();
            System.out.printf("%n### reads, %s: %d servers side by side, %d warm-up and %d measured rounds per query%n%n",
                    dialect, servers.size(), warmup, rounds);
            StringBuilder header = new StringBuilder("| query |");
            StringBuilder rule = new StringBuilder("|---|");
            for (Server s : servers) {
                header.append(' ').append(String.format("%,d stmts, %d%% refs", s.set().size(),
                        Math.round(s.set().corpus().refShare() * 100))).append(" |");
                rule.append("---:|");
            }
            long smallest = sets.stream().mapToLong(Dataset::size).min().orElseThrow();
            long largest = sets.stream().mapToLong(Dataset::size).max().orElseThrow();
            long bothShares = sets.stream().filter(d -> share(d) == 0).mapToLong(Dataset::size)
                    .filter(n -> sets.stream().anyMatch(d -> share(d) == 10 && d.size() == n)).max().orElse(-1);
            System.out.println(header + String.format(" p50 %s / %s (10%% refs) | p50 10%% / 0%% refs (%s) |",
                    count(largest), count(smallest), bothShares < 0 ? "–" : count(bothShares)));
            System.out.println(rule + "---:|---:|");
            SplittableRandom random = new SplittableRandom(42);
            for (Query q : Query.values()) {
                Latencies[] lat = new Latencies[servers.size()];
                for (int i = 0; i < lat.length; i++) {
                    lat[i] = new Latencies();
                }
                for (int round = -warmup; round < rounds; round++) {
                    for (int k = 0; k < servers.size(); k++) {
                        int i = (k + Math.floorMod(round, servers.size())) % servers.size(); // rotate who goes first
                        Server s = servers.get(i);
                        String target = switch (q) {
                            case BY_ID -> "/xapi/statements?statementId=" + StatementCorpus.id(random.nextLong(s.set().size()));
                            case VERB -> VERB_PAGE;
                            case VERB_IDS -> VERB_PAGE + "&format=ids";
                            case MORE -> s.more();
                            case ABSENT_VERB -> ABSENT_PAGE;
                            case AGENT_RELATED -> AGENT_PAGE;
                            case VERB_AND_AGENT -> VERB_AND_AGENT_PAGE;
                        };
                        long t0 = System.nanoTime();
                        LoopbackClient.Response r = s.client().get(target);
                        long t = System.nanoTime() - t0;
                        if (r.status() != 200) {
                            throw new IllegalStateException(q + " on " + s.set().name() + ": " + r.status() + " " + r.text());
                        }
                        if (round >= 0) {
                            lat[i].add(t);
                        }
                    }
                }
                StringBuilder row = new StringBuilder("| " + q.label + " |");
                for (Latencies l : lat) {
                    row.append(String.format(" %.3f / %.3f |", l.percentileMillis(50), l.percentileMillis(99)));
                }
                // a page that does not fill (both filters on a small set) reads a different range: compare full ones
                long from = q != Query.VERB_AND_AGENT ? smallest : servers.stream().filter(Server::bothFull)
                        .mapToLong(sv -> sv.set().size()).min().orElse(largest);
                String cell = ratio(servers, lat, 10, from, 10, largest);
                row.append(' ').append(cell).append(from == smallest || cell.equals("–") ? ""
                        : " (from " + count(from) + ": a smaller set holds fewer than 100 such statements)").append(" | ")
                        .append(ratio(servers, lat, 0, bothShares, 10, bothShares)).append(" |");
                System.out.println(row);
            }
            System.out.println();
            System.out.println("Cells: p50 / p99 latency in ms, measured by the client. The ratios compare p50s: the largest"
                    + " data set over the smallest (10% StatementRefs), and 10% over 0% StatementRefs at one size; the"
                    + " design asks every filtered GET to stay within 1.3× (✅).");
        } finally {
            for (Server s : servers) {
                if (s.client() != null) {
                    s.client().close();
                }
                s.cairn().stop();
            }
        }
    }

    private static int share(Dataset d) {
        return (int) Math.round(d.corpus().refShare() * 100);
    }

    /** 10k, 1M, 10M: a statement count as the table's header names it. */
    private static String count(long n) {
        return n >= 1_000_000 && n % 1_000_000 == 0 ? n / 1_000_000 + "M" : n >= 1_000 && n % 1_000 == 0
                ? n / 1_000 + "k" : Long.toString(n);
    }

    /** The ratio of p50s between two data sets, when both were measured. */
    private static String ratio(List<Server> servers, Latencies[] lat, int refsA, long sizeA, int refsB, long sizeB) {
        Latencies a = null;
        Latencies b = null;
        for (int i = 0; i < servers.size(); i++) {
            Dataset d = servers.get(i).set();
            int refs = share(d);
            if (refs == refsA && d.size() == sizeA) {
                a = lat[i];
            }
            if (refs == refsB && d.size() == sizeB) {
                b = lat[i];
            }
        }
        if (a == null || b == null || a == b) {
            return "–";
        }
        double ratio = b.percentileMillis(50) / a.percentileMillis(50);
        return String.format("**%.2f×** %s", ratio, ratio <= 1.3 ? "✅" : "❌"); // the design: within 1.3×
    }

    /** Checks that each query answers as the data set says it should; returns the verb page's more link. */
    private static String check(Dataset d, LoopbackClient client) throws IOException {
        JsonNode verb = JSON.readTree(ok(client.get(VERB_PAGE), "verb page").body());
        JsonNode agent = JSON.readTree(ok(client.get(AGENT_PAGE), "agent page").body());
        JsonNode absent = JSON.readTree(ok(client.get(ABSENT_PAGE), "absent verb").body());
        ok(client.get("/xapi/statements?statementId=" + StatementCorpus.id(d.size() - 1)), "statement by id");
        if (verb.get("statements").size() != 100 || agent.get("statements").size() != 100
                || absent.get("statements").size() != 0 || verb.get("more").asText().isEmpty()) {
            throw new IllegalStateException(d.name() + ": unexpected page sizes");
        }
        System.err.printf("%s %s: verb page holds %d StatementRefs, agent page %d%n", d.dialect(), d.name(),
                refs(verb), refs(agent));
        return verb.get("more").asText();
    }

    private static int refs(JsonNode page) {
        int n = 0;
        for (JsonNode s : page.get("statements")) {
            n += "StatementRef".equals(s.path("object").path("objectType").asText()) ? 1 : 0;
        }
        return n;
    }

    static LoopbackClient.Response ok(LoopbackClient.Response r, String what) {
        if (r.status() != 200) {
            throw new IllegalStateException(what + ": HTTP " + r.status() + " " + r.text());
        }
        return r;
    }

    // --------------------------------------------------------------------------------------------- writes

    static byte[] body(StatementCorpus corpus, AtomicLong next, int statements) {
        if (statements == 1) {
            return corpus.json(next.getAndIncrement());
        }
        StringBuilder b = new StringBuilder(statements * 1100).append('[');
        for (int i = 0; i < statements; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(new String(corpus.json(next.getAndIncrement()), StandardCharsets.UTF_8));
        }
        return b.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
