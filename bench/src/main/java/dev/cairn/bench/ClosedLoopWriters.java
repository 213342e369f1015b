package dev.cairn.bench;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers of single statements, each on a keep-alive connection of its own, each sending its next statement when the
 * previous one is answered (a closed loop, as learners' browsers report), against a Cairn server in another process:
 * statements per second, latency, and the server's CPU per statement (all its threads, from /proc). A second of
 * warm-up precedes the measured seconds.
 *
 * <pre>
 * java @jvm.options -cp bench/target/benchmarks.jar dev.cairn.bench.ClosedLoopWriters --port 8080 --pid SERVER_PID
 *     --credential KEY:SECRET [--writers 64] [--seconds 10] [--ack durable|visible]
 * </pre>
 */
public final class ClosedLoopWriters {
    /** What one run measured. */
    record Result(int writers, String ack, long statements, double seconds, Latencies latencies, long cpuNanos,
                  long unanswered) {
        double perSecond() {
            return statements / seconds;
        }

        double cpuMicrosPerStatement() {
            return cpuNanos / 1e3 / Math.max(1, statements);
        }
    }

    private ClosedLoopWriters() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "port", "8080", "pid", "", "credential", "", "writers", "64", "seconds", "10",
                "ack", "durable", "batch", "1");
        Result r = run(o.intValue("port"), o.longValue("pid"), o.value("credential"), new StatementCorpus(0.1),
                new AtomicLong(System.nanoTime() & 0xffff_ffffL), o.intValue("writers"), o.intValue("seconds"),
                o.value("ack"), o.intValue("batch"));
        System.out.printf("%d writers, ack=%s: %,d statements in %.0f s = %,.0f/s; p50 %.3f ms, p99 %.3f ms; server CPU "
                        + "%.0f µs per statement; %d unanswered%n", r.writers(), r.ack(), r.statements(), r.seconds(),
                r.perSecond(), r.latencies().percentileMillis(50), r.latencies().percentileMillis(99),
                r.cpuMicrosPerStatement(), r.unanswered());
    }

    /** Runs {@code writers} writers for {@code seconds} after a second of warm-up; {@code ack} is durable or visible. */
    static Result run(int port, long pid, String credential, StatementCorpus corpus, AtomicLong next, int writers,
                      int seconds, String ack) throws InterruptedException {
        return run(port, pid, credential, corpus, next, writers, seconds, ack, 1);
    }

    /** As above, each POST an array of {@code batch} statements when it is more than 1 (counted as statements). */
    static Result run(int port, long pid, String credential, StatementCorpus corpus, AtomicLong next, int writers,
                      int seconds, String ack, int batch) throws InterruptedException {
        String header = "X-Cairn-Ack: " + ack + "\r\n";
        long start = System.nanoTime() + 100_000_000L;
        long measureFrom = start + 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        Latencies[] lat = new Latencies[writers];
        long[] counted = new long[writers];
        long[] lost = new long[writers];
        CountDownLatch done = new CountDownLatch(writers);
        List<Throwable> failures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int me = w;
            lat[me] = new Latencies();
            Thread t = new Thread(() -> {
                try (LoopbackClient client = new LoopbackClient(port, credential)) {
                    while (System.nanoTime() < start) {
                        Thread.sleep(1);
                    }
                    long now;
                    while ((now = System.nanoTime()) < end) {
                        byte[] body = batch == 1 ? corpus.json(next.getAndIncrement()) : array(corpus, next, batch);
                        long t0 = System.nanoTime();
                        try {
                            HttpBench.ok(client.post("/xapi/statements", body, header), "POST of statements");
                        } catch (UncheckedIOException e) {
                            if (!(e.getCause() instanceof SocketTimeoutException)) {
                                throw e;
                            }
                            lost[me]++; // no answer: the client reconnects and goes on
                            continue;
                        }
                        long t1 = System.nanoTime();
                        if (now >= measureFrom && t1 <= end) {
                            lat[me].add(t1 - t0);
                            counted[me] += batch;
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                } finally {
                    done.countDown();
                }
            }, "writer-" + w);
            t.start();
        }
        Thread.sleep(Math.max(0, (measureFrom - System.nanoTime()) / 1_000_000));
        long cpu0 = ProcessCpu.nanos(pid);
        Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
        long cpu = ProcessCpu.nanos(pid) - cpu0;
        done.await();
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a writer failed", failures.get(0));
        }
        Latencies all = new Latencies();
        long total = 0;
        long unanswered = 0;
        for (int w = 0; w < writers; w++) {
            all.addAll(lat[w]);
            total += counted[w];
            unanswered += lost[w];
        }
        return new Result(writers, ack, total, seconds, all, cpu, unanswered);
    }

    private static byte[] array(StatementCorpus corpus, AtomicLong next, int n) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(n * 1300);
        out.write('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(corpus.json(next.getAndIncrement()));
        }
        out.write(']');
        return out.toByteArray();
    }
}
