package dev.cairn.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow clients against a running Cairn (issue 19): {@code --connections} connections that trickle their headers, or
 * declare a large body and trickle it (with credentials, and without them through the Alternate Request Syntax), one
 * byte every {@code --interval} ms, while a normal client measures a small GET and a small POST. The budget
 * {@code --seconds} is split into a fifth without slow connections, three fifths with them and a fifth after they are
 * gone. Prints the normal client's p50/p99 in each phase, how many slow connections the server closed and after how
 * long, and the server's memory before, during and after. Exits non-zero when the normal client lost a request while
 * the slow connections were open, when its p99 then passed {@code --max-p99-ms}, or (with
 * {@code --expect-closed-within S}) when a slow connection was still open S seconds after it began, or (with
 * {@code --max-old-gen-growth-mb M}) when they made the server's old generation grow by more than M MiB.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.cairn.bench.SlowClients --url http://127.0.0.1:8080/xapi
 *     --credential KEY:SECRET [--connections 300] [--seconds 60] [--interval 2000] [--pid SERVER_PID]
 *     [--max-p99-ms 1000] [--expect-closed-within 0] [--max-old-gen-growth-mb 0]
 * </pre>
 */
public final class SlowClients {
    private enum Kind {
        HEADERS("trickled headers"),
        BODY("trickled body, with credentials"),
        UNAUTHENTICATED_BODY("trickled form body, no credentials (Alternate Request Syntax)");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One slow connection: when it opened, and when and how the server ended it. */
    private static final class Slow {
        final Kind kind;
        final SocketChannel channel;
        final long opened = System.nanoTime();
        long closedNanos = -1;
        String how;
        String status;
        long nextSend;
        final StringBuilder answer = new StringBuilder();

        Slow(Kind kind, SocketChannel channel) {
            this.kind = kind;
            this.channel = channel;
        }

        void closed(String why) {
            if (closedNanos < 0) {
                closedNanos = System.nanoTime() - opened;
                how = why;
            }
        }
    }

    /** The outcome, for the CI test to assert. */
    static final class Report {
        final Latencies[] latencies = {new Latencies(), new Latencies(), new Latencies()};
        final int[] lost = new int[3];
        final List<String> memory = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        int opened;
        int closedByServer;
        int openAtEnd;
        long oldGenGrowth;
    }

    private static final String[] PHASES = {"without slow connections", "with slow connections", "after they closed"};

    private SlowClients() {
    }

    public static void main(String[] args) throws Exception {
        Report r = run(args, System.out);
        System.exit(r.failures.isEmpty() ? 0 : 1);
    }

    static Report run(String[] args, PrintStream log) throws Exception {
        Options o = Options.parse(args, "url", "http://127.0.0.1:8080/xapi", "credential", "", "connections", "300",
                "seconds", "60", "interval", "2000", "pid", "", "max-p99-ms", "1000", "expect-closed-within", "0",
                "max-old-gen-growth-mb", "0");
        URI url = URI.create(o.value("url"));
        int port = url.getPort();
        String credential = o.value("credential");
        int connections = o.intValue("connections");
        long budget = o.longValue("seconds") * 1_000_000_000L;
        long interval = o.longValue("interval") * 1_000_000L;
        ServerProbe probe = new ServerProbe(port, credential, o.value("pid"));
        Report report = new Report();
        log.println(Machine.describe());
        log.printf("SlowClients: %s, %d slow connections, one byte every %d ms, %d s in all%n", url, connections,
                o.longValue("interval"), o.longValue("seconds"));

        long start = System.nanoTime();
        long slowFrom = start + budget / 5;
        long slowUntil = start + budget * 4 / 5;
        long end = start + budget;
        AtomicInteger phase = new AtomicInteger();
        Thread normal = new Thread(() -> normalClient(port, credential, end, phase, report), "normal-client");
        report.memory.add(probe.memory("before"));
        long oldBefore = probe.jvmMemory()[2];
        normal.start();
        sleepUntil(slowFrom);
        phase.set(1);
        List<Slow> slow = new ArrayList<>();
        String authorization = "Basic " + Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.UTF_8));
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connections && System.nanoTime() < slowUntil; i++) {
                Kind kind = Kind.values()[i % Kind.values().length];
                try {
                    SocketChannel ch = SocketChannel.open();
                    // a server that caps its connections may leave this one in the backlog: bounded, not forever
                    ch.socket().connect(new InetSocketAddress(url.getHost(), port), 5000);
                    ch.configureBlocking(false);
                    Slow s = new Slow(kind, ch);
                    ch.write(ByteBuffer.wrap(opening(kind, url.getHost() + ":" + port, authorization)));
                    s.nextSend = System.nanoTime() + interval;
                    ch.register(selector, SelectionKey.OP_READ, s);
                    slow.add(s);
                } catch (IOException e) {
                    report.failures.add("slow connection " + i + " could not connect: " + e.getMessage());
                }
            }
            report.opened = slow.size();
            log.printf("  %d slow connections open after %.1f s%n", slow.size(), (System.nanoTime() - slowFrom) / 1e9);
            long memoryAt = slowFrom + (slowUntil - slowFrom) / 2;
            boolean memoryTaken = false;
            ByteBuffer buf = ByteBuffer.allocate(4096);
            ByteBuffer one = ByteBuffer.allocate(1);
            while (System.nanoTime() < slowUntil) {
                selector.select(50);
                for (SelectionKey key : selector.selectedKeys()) {
                    Slow s = (Slow) key.attachment();
                    buf.clear();
                    int n;
                    try {
                        n = s.channel.read(buf);
                    } catch (IOException e) {
                        n = -1;
                    }
                    if (n < 0) {
                        s.closed(s.status == null ? "closed" : "answered " + s.status + ", then closed");
                        key.cancel();
                        s.channel.close();
                    } else if (s.answer.length() < 200) {
                        s.answer.append(new String(buf.array(), 0, n, StandardCharsets.ISO_8859_1));
                        if (s.status == null && s.answer.indexOf("\r\n") > 0) {
                            s.status = s.answer.substring(0, s.answer.indexOf("\r\n"));
                        }
                    }
                }
                selector.selectedKeys().clear();
                long now = System.nanoTime();
                for (Slow s : slow) {
                    if (s.closedNanos < 0 && now >= s.nextSend) {
                        one.clear();
                        one.put((byte) 'a').flip();
                        try {
                            s.channel.write(one);
                        } catch (IOException e) {
                            s.closed(s.status == null ? "reset" : "answered " + s.status + ", then reset");
                            s.channel.close();
                        }
                        s.nextSend = now + interval;
                    }
                }
                if (!memoryTaken && now >= memoryAt) {
                    report.memory.add(probe.memory("during"));
                    report.oldGenGrowth = probe.jvmMemory()[2] - oldBefore;
                    memoryTaken = true;
                }
            }
            summarize(slow, report, o.longValue("expect-closed-within"), log);
            for (Slow s : slow) {
                s.channel.close();
            }
        }
        phase.set(2);
        normal.join();
        report.memory.add(probe.memory("after"));
        long maxGrowth = o.longValue("max-old-gen-growth-mb");
        if (maxGrowth > 0 && report.oldGenGrowth > maxGrowth << 20) {
            report.failures.add(String.format("the server's old generation grew by %,d MiB while the slow connections were "
                    + "open (bound %d MiB)", report.oldGenGrowth >> 20, maxGrowth));
        }
        print(report, o.longValue("max-p99-ms"), log);
        return report;
    }

    /** The bytes a slow connection opens with: all but what it then trickles. */
    private static byte[] opening(Kind kind, String host, String authorization) {
        String head = switch (kind) {
            case HEADERS -> "GET /xapi/about HTTP/1.1\r\nHost: " + host + "\r\nX-Slow: ";
            case BODY -> "POST /xapi/statements HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + authorization
                    + "\r\nX-Experience-API-Version: 2.0.0\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n[";
            case UNAUTHENTICATED_BODY -> "POST /xapi/statements?method=PUT HTTP/1.1\r\nHost: " + host
                    + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 16000000\r\n\r\ncontent=";
        };
        return head.getBytes(StandardCharsets.US_ASCII);
    }

    private static void normalClient(int port, String credential, long end, AtomicInteger phase, Report report) {
        String id = UUID.randomUUID().toString();
        byte[] small = ("{\"actor\":{\"mbox\":\"mailto:normal@example.com\"},\"verb\":{\"id\":\"http://example.com/v\"},"
                + "\"object\":{\"id\":\"http://example.com/a\"}}").getBytes(StandardCharsets.UTF_8);
        LoopbackClient client = new LoopbackClient(port, credential);
        try {
            client.post("/xapi/statements", ("[{\"id\":\"" + id + "\"," + new String(small, StandardCharsets.UTF_8).substring(1) + "]")
                    .getBytes(StandardCharsets.UTF_8), "");
        } catch (UncheckedIOException e) {
            report.failures.add("the normal client could not store its statement: " + e.getMessage());
        }
        for (int i = 0; System.nanoTime() < end; i++) {
            int p = phase.get();
            long t0 = System.nanoTime();
            try {
                LoopbackClient.Response r = i % 2 == 0 ? client.get("/xapi/statements?statementId=" + id)
                        : client.post("/xapi/statements", small, "");
                if (r.status() != 200) {
                    synchronized (report) {
                        report.lost[p]++;
                    }
                    continue;
                }
                synchronized (report) {
                    report.latencies[p].add(System.nanoTime() - t0);
                }
            } catch (UncheckedIOException e) {
                synchronized (report) {
                    report.lost[p]++;
                }
            }
            try {
                Thread.sleep(5); // a client, not a load generator
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        client.close();
    }

    private static void summarize(List<Slow> slow, Report report, long expectClosedWithin, PrintStream log) {
        log.printf("%n| slow connections | opened | closed by the server | after (min / median / max s) | how | still open |%n"
                + "|---|---:|---:|---|---|---:|%n");
        for (Kind k : Kind.values()) {
            List<Slow> mine = slow.stream().filter(s -> s.kind == k).toList();
            long[] closed = mine.stream().filter(s -> s.closedNanos >= 0).mapToLong(s -> s.closedNanos).sorted().toArray();
            String hows = String.join("; ", mine.stream().filter(s -> s.how != null).map(s -> s.how).distinct().limit(3).toList());
            long open = mine.size() - closed.length;
            log.printf("| %s | %d | %d | %s | %s | %d |%n", k.label, mine.size(), closed.length,
                    closed.length == 0 ? "-" : String.format("%.1f / %.1f / %.1f", closed[0] / 1e9,
                            closed[closed.length / 2] / 1e9, closed[closed.length - 1] / 1e9),
                    hows.isEmpty() ? "-" : hows, open);
            report.closedByServer += closed.length;
            report.openAtEnd += (int) open;
            if (expectClosedWithin > 0) {
                long late = mine.stream().filter(s -> s.closedNanos < 0 ? System.nanoTime() - s.opened > expectClosedWithin * 1_000_000_000L
                        : s.closedNanos > expectClosedWithin * 1_000_000_000L).count();
                if (late > 0) {
                    report.failures.add(late + " of " + mine.size() + " connections with " + k.label
                            + " were still open " + expectClosedWithin + " s after they began");
                }
            }
        }
    }

    private static void print(Report r, long maxP99, PrintStream log) {
        log.printf("%n| normal client (GET by id, POST of one statement) | requests | p50 ms | p99 ms | lost |%n|---|---:|---:|---:|---:|%n");
        for (int p = 0; p < 3; p++) {
            log.printf("| %s | %,d | %.2f | %.2f | %d |%n", PHASES[p], r.latencies[p].count(), r.latencies[p].percentileMillis(50),
                    r.latencies[p].percentileMillis(99), r.lost[p]);
        }
        if (r.lost[1] > 0) {
            r.failures.add("the normal client lost " + r.lost[1] + " requests while the slow connections were open");
        }
        if (r.latencies[1].count() == 0 || r.latencies[1].percentileMillis(99) > maxP99) {
            r.failures.add("the normal client's p99 with slow connections was " + r.latencies[1].percentileMillis(99)
                    + " ms (bound " + maxP99 + " ms)");
        }
        log.println();
        r.memory.forEach(log::println);
        log.println();
        r.failures.forEach(f -> log.println("FAILURE: " + f));
        log.println(r.failures.isEmpty() ? "PASS" : "FAIL");
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, left / 1_000_000));
        }
    }
}
