package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The log's other readers, against real Cairn processes on loopback (issue 21), SQLite:
 * <ul>
 *   <li>forwarding rate: a source Cairn holding N imported statements forwards them all (a target added with
 *       {@code --from start}) to a second Cairn in POSTs of {@code --batch}, timed from the target's start to no lag,
 *       by the source's {@code /health/ready};</li>
 *   <li>forwarding lag: single-batch writes of 10 statements every 10 ms (1,000 statements/s, {@code ack=durable})
 *       for {@code --seconds}, forwarded to a webhook in this process with the default largest delay (1 s): the time
 *       from each write's acknowledgement to its statement's arrival, p50 and p99;</li>
 *   <li>export rate: {@code GET /admin/export} of the N statements as NDJSON, read to the end by this process, the
 *       second of two runs (a warm server), and {@code cairn export} in a new JVM.</li>
 * </ul>
 *
 * <pre>
 * java @jvm.options -cp bench/target/benchmarks.jar dev.cairn.bench.ForwardBench [--statements 1000000]
 *     [--batch 500] [--seconds 30] [--dir DIR]
 * </pre>
 */
public final class ForwardBench {
    private static final String CREDENTIAL = "bench-forward:bench-forward-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ForwardBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "statements", "200000", "batch", "500", "seconds", "20", "dir", "");
        int n = o.intValue("statements");
        int batch = o.intValue("batch");
        Path dir = o.value("dir").isEmpty() ? Files.createTempDirectory("cairn-forward-bench") : Path.of(o.value("dir"));
        delete(dir); // a scratch directory: what an earlier run left would be imported twice
        Files.createDirectories(dir);
        System.err.println(Machine.describe());
        Path source = dir.resolve("source");
        Path file = dir.resolve("statements.ndjson");
        StatementCorpus corpus = new StatementCorpus(0);
        long jsonBytes = 0;
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (long i = 0; i < n; i++) {
                byte[] json = corpus.json(i);
                out.write(json);
                out.write('\n');
                jsonBytes += json.length;
            }
        }
        // The target makes each POST durable with one sync of one log entry of about the batch's JSON: a synchronous
        // write of that many bytes is the disk's limit for it, measured before the servers load the disk.
        DiskProbe disk = DiskProbe.measure(dir, (int) (jsonBytes / n * batch));
        try (CairnProcess first = CairnProcess.serve(source, CREDENTIAL, Map.of())) {
            first.stop(); // makes the log and database that the import then fills in process
        }
        int imported = CairnProcess.run(dir.resolve("import.out"), Map.of("CAIRN_ADMIN_CREDENTIAL", CREDENTIAL),
                "import", file.toString(), "--data", source.toString());
        if (imported != 0) {
            throw new IllegalStateException("cairn import exited " + imported + ": "
                    + Files.readString(dir.resolve("import.out")));
        }
        List<String> rows = new ArrayList<>();
        try (CairnProcess a = CairnProcess.serve(source, CREDENTIAL, Map.of());
             CairnProcess b = CairnProcess.serve(dir.resolve("target"), CREDENTIAL, Map.of())) {
            while (ready(a).path("projectorLagEvents").asLong(-1) != 0) { // the import is projected at start
                Thread.sleep(200);
            }
            exportRows(rows, a, n, source, dir);
            rows.add(forwardRate(a, b, n, batch, source, dir));
            rows.add(lag(a, batch, n, o.intValue("seconds"), source, dir));
        }
        delete(dir); // two stores of N statements: gigabytes at a million
        System.out.println("| measure | result | goal |");
        System.out.println("|---|---:|---|");
        rows.forEach(System.out::println);
        System.out.printf("%nSource and target: `cairn serve` on SQLite, each its own JVM, on this machine's loopback; "
                + "%,d statements of ~1.2 KB imported into the source first.%n", n);
        System.out.printf("%n%s A target that syncs one POST of %d at a time can take up to %,.0f statements/s.%n",
                disk.line(), batch, batch * disk.syncsPerSecond());
    }

    private static void exportRows(List<String> rows, CairnProcess a, int n, Path source, Path dir) throws Exception {
        double[] perSecond = new double[2];
        for (int run = 0; run < 2; run++) {
            long t0 = System.nanoTime();
            HttpResponse<InputStream> r = HTTP.send(HttpRequest.newBuilder(URI.create(base(a) + "/admin/export"))
                    .header("Authorization", basic()).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            long lines = 0;
            try (InputStream in = r.body()) {
                byte[] buf = new byte[1 << 16];
                for (int k; (k = in.read(buf)) > 0; ) {
                    for (int i = 0; i < k; i++) {
                        if (buf[i] == '\n') {
                            lines++;
                        }
                    }
                }
            }
            if (r.statusCode() != 200 || lines != n) {
                throw new IllegalStateException("GET /admin/export: " + r.statusCode() + ", " + lines + " lines of " + n);
            }
            perSecond[run] = n / ((System.nanoTime() - t0) / 1e9);
        }
        rows.add(String.format("| export: `GET /admin/export` NDJSON of %,d statements, read to the end (second run; "
                + "first %,.0f/s) | **%,.0f statements/s** | ≥ 100,000 %s |", n, perSecond[0], perSecond[1],
                perSecond[1] >= 100_000 ? "✅" : "❌"));
        Path out = dir.resolve("export.ndjson");
        long t0 = System.nanoTime();
        int exit = CairnProcess.run(dir.resolve("export.out"), Map.of(), "export", "--output", out.toString(),
                "--data", source.toString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("cairn export exited " + exit);
        }
        rows.add(String.format("| export: `cairn export --output FILE` of %,d statements in a new JVM (start-up "
                + "included) | %,.0f statements/s | |", n, n / seconds));
    }

    /** Adds a target from the log's start and times it to no lag. */
    private static String forwardRate(CairnProcess a, CairnProcess b, int n, int batch, Path source, Path dir)
            throws Exception {
        CairnProcess.targets(dir, source, "add", "second", "--kind", "lrs", "--url", b.url(),
                "--credential", CREDENTIAL, "--from", "start", "--batch", String.valueOf(batch), "--max-delay", "200");
        long started = 0;
        long cpuA = 0;
        long cpuB = 0;
        // Where the first fifth had been delivered: both JVMs are fresh, and their JIT compilers take a large share
        // of the two cores in the first tens of seconds; a running server forwards at the rate after that.
        long warmNanos = 0;
        long warmDelivered = 0;
        long nextLook = 0;
        long deadline = System.nanoTime() + 3_600_000_000_000L;
        while (System.nanoTime() < deadline) {
            JsonNode t = ready(a).path("forwarding").path("second");
            long now = System.nanoTime();
            if (!t.isMissingNode()) {
                if (started == 0) {
                    started = now;
                    cpuA = ProcessCpu.nanos(a.pid());
                    cpuB = ProcessCpu.nanos(b.pid());
                }
                if (warmNanos == 0 && now >= nextLook) {
                    nextLook = now + 1_000_000_000L;
                    long d = delivered(a, "second");
                    if (d >= n / 5) {
                        warmNanos = System.nanoTime();
                        warmDelivered = d;
                    }
                }
                if (t.get("lagEntries").asLong() == 0) {
                    double seconds = (now - started) / 1e9;
                    double sourceCores = (ProcessCpu.nanos(a.pid()) - cpuA) / 1e9 / seconds;
                    double targetCores = (ProcessCpu.nanos(b.pid()) - cpuB) / 1e9 / seconds;
                    long delivered = delivered(a, "second");
                    double warm = warmNanos == 0 || now <= warmNanos ? 0
                            : (delivered - warmDelivered) / ((now - warmNanos) / 1e9);
                    return String.format("| forwarding: %,d statements from the log to a second Cairn (lrs, POSTs "
                            + "of %d, each answered once durable in the target's log), %,d delivered; CPU of the "
                            + "source %.2f cores (%.0f µs per statement), of the target %.2f cores (%.0f µs), of %d; "
                            + "%,.0f statements/s from the start, both JVMs fresh | **%,.0f statements/s** after the "
                            + "first %,d | ≥ 20,000 %s |", n, batch, delivered, sourceCores,
                            sourceCores * seconds * 1e6 / n, targetCores, targetCores * seconds * 1e6 / n,
                            Runtime.getRuntime().availableProcessors(), n / seconds, warm, warmDelivered,
                            warm >= 20_000 && delivered == n ? "✅" : "❌");
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("forwarding did not catch up within an hour");
    }

    /** 1,000 statements/s for {@code seconds}, each timed from its acknowledgement to its arrival at a webhook. */
    private static String lag(CairnProcess a, int batch, int n, int seconds, Path source, Path dir) throws Exception {
        Map<String, Long> arrived = new ConcurrentHashMap<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            long now = System.nanoTime();
            for (JsonNode s : JSON.readTree(body).get("statements")) {
                arrived.putIfAbsent(s.get("id").asText(), now);
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hook.start();
        try {
            CairnProcess.targets(dir, source, "add", "probe", "--kind", "webhook", "--url", "http://127.0.0.1:"
                    + hook.getAddress().getPort() + "/hook", "--batch", String.valueOf(batch));
            while (ready(a).path("forwarding").path("probe").isMissingNode()) {
                Thread.sleep(50);
            }
            Map<String, Long> acknowledged = new ConcurrentHashMap<>();
            StatementCorpus corpus = new StatementCorpus(0);
            AtomicLong next = new AtomicLong(n); // the corpus's statements after the imported ones
            try (LoopbackClient client = new LoopbackClient(a.port(), CREDENTIAL)) {
                long start = System.nanoTime();
                for (long tick = 0; tick < seconds * 100L; tick++) {
                    long due = start + tick * 10_000_000L;
                    while (System.nanoTime() < due) {
                        Thread.onSpinWait();
                    }
                    StringBuilder array = new StringBuilder("[");
                    for (int i = 0; i < 10; i++) {
                        array.append(i == 0 ? "" : ",").append(new String(corpus.json(next.getAndIncrement()),
                                StandardCharsets.UTF_8));
                    }
                    LoopbackClient.Response r = client.post("/xapi/statements",
                            array.append(']').toString().getBytes(StandardCharsets.UTF_8), "X-Cairn-Ack: durable\r\n");
                    long now = System.nanoTime();
                    if (r.status() != 200) {
                        throw new IllegalStateException("POST got " + r.status() + ": " + new String(r.body(), StandardCharsets.UTF_8));
                    }
                    for (JsonNode id : JSON.readTree(r.body())) {
                        acknowledged.put(id.asText(), now);
                    }
                }
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!arrived.keySet().containsAll(acknowledged.keySet()) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Latencies lags = new Latencies();
            long missing = 0;
            for (Map.Entry<String, Long> e : acknowledged.entrySet()) {
                Long at = arrived.get(e.getKey());
                if (at == null) {
                    missing++;
                } else {
                    lags.add(Math.max(0, at - e.getValue()));
                }
            }
            double p99 = lags.percentileMillis(99);
            return String.format("| forwarding lag at a steady 1,000 statements/s for %d s (a webhook, POSTs of up "
                    + "to %d, largest delay 1 s): acknowledgement to arrival, %,d statements%s | p50 %.0f ms, **p99 "
                    + "%.0f ms** | p99 < 1 s %s |", seconds, batch, acknowledged.size(), missing == 0 ? ""
                    : ", " + missing + " never arrived", lags.percentileMillis(50), p99,
                    p99 < 1000 && missing == 0 ? "✅" : "❌");
        } finally {
            hook.stop(0);
        }
    }

    private static JsonNode ready(CairnProcess a) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base(a) + "/health/ready")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    private static long delivered(CairnProcess a, String target) throws IOException, InterruptedException {
        String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(base(a) + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("cairn_forward_delivered_total{") && line.contains("target=\"" + target + "\"")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static String base(CairnProcess p) {
        return "http://127.0.0.1:" + p.port();
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static String basic() {
        return "Basic " + Base64.getEncoder().encodeToString(CREDENTIAL.getBytes(StandardCharsets.UTF_8));
    }
}
