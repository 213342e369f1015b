package dev.cairn.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers of single statements, each on a keep-alive connection of its own, each sending its next statement when the
 * previous one is answered (a closed loop, as learners' browsers report; {@link SelectorWriters} drives them all from
 * one thread), against a Cairn server in another process:
 * statements per second, latency, and the server's CPU per statement (all its threads, from /proc). A second of
 * warm-up precedes the measured seconds.
 *
 * <pre>
 * java @jvm.options -cp bench/target/benchmarks.jar dev.cairn.bench.ClosedLoopWriters --port 8080 --pid SERVER_PID
 *     --credential KEY:SECRET [--writers 64] [--seconds 10] [--ack durable|visible]
 * </pre>
 */
public final class ClosedLoopWriters {
    /**
     * What one run measured; {@code clientCpuNanos} is this load generator's own CPU meanwhile, which the server's
     * machine pays for here and would not with its users' traffic.
     */
    record Result(int writers, String ack, long statements, double seconds, Latencies latencies, long cpuNanos,
                  long clientCpuNanos, long unanswered) {
        double perSecond() {
            return statements / seconds;
        }

        double cpuMicrosPerStatement() {
            return cpuNanos / 1e3 / Math.max(1, statements);
        }

        double clientCpuMicrosPerStatement() {
            return clientCpuNanos / 1e3 / Math.max(1, statements);
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
                        + "%.0f µs per statement; %d unanswered; client CPU %.0f µs per statement%n", r.writers(), r.ack(),
                r.statements(), r.seconds(), r.perSecond(), r.latencies().percentileMillis(50),
                r.latencies().percentileMillis(99), r.cpuMicrosPerStatement(), r.unanswered(),
                r.clientCpuMicrosPerStatement());
    }

    /** Runs {@code writers} writers for {@code seconds} after a second of warm-up; {@code ack} is durable or visible. */
    static Result run(int port, long pid, String credential, StatementCorpus corpus, AtomicLong next, int writers,
                      int seconds, String ack) throws InterruptedException {
        return run(port, pid, credential, corpus, next, writers, seconds, ack, 1);
    }

    /** As above, each POST an array of {@code batch} statements when it is more than 1 (counted as statements). */
    static Result run(int port, long pid, String credential, StatementCorpus corpus, AtomicLong next, int writers,
                      int seconds, String ack, int batch) throws InterruptedException {
        long start = System.nanoTime() + 100_000_000L;
        long measureFrom = start + 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        SelectorWriters load = new SelectorWriters(port, credential, "/xapi/statements", "X-Cairn-Ack: " + ack + "\r\n",
                () -> batch == 1 ? corpus.json(next.getAndIncrement()) : array(corpus, next, batch),
                LoopbackClient.TIMEOUT_MILLIS);
        long[] cpu = new long[2];
        Thread meter = new Thread(() -> {
            try {
                Thread.sleep(Math.max(0, (measureFrom - System.nanoTime()) / 1_000_000));
                long self = ProcessHandle.current().pid();
                long server0 = ProcessCpu.nanos(pid);
                long client0 = ProcessCpu.nanos(self);
                Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
                cpu[0] = ProcessCpu.nanos(pid) - server0;
                cpu[1] = ProcessCpu.nanos(self) - client0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "cpu-meter");
        meter.start();
        SelectorWriters.Counts counts;
        try {
            counts = load.run(writers, start, measureFrom, end, batch);
        } finally {
            meter.join();
        }
        return new Result(writers, ack, counts.requests(), seconds, counts.latencies(), cpu[0], cpu[1], counts.lost());
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
