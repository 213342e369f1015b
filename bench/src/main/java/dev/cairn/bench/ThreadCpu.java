package dev.cairn.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time used by each of this JVM's threads between two moments. On a shared machine wall time depends on what
 * else runs; CPU time per statement of each thread does much less, and the busiest thread of a pipeline bounds its
 * rate when every thread has a core.
 */
final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> startNanos = new TreeMap<>();

    private ThreadCpu() {
    }

    /** Starts counting now. */
    static ThreadCpu start() {
        ThreadCpu c = new ThreadCpu();
        for (long id : THREADS.getAllThreadIds()) {
            c.startNanos.put(id, THREADS.getThreadCpuTime(id));
        }
        return c;
    }

    /** The name of a thread's pool: numbered threads of one pool (Undertow's workers, writer-3) count as one. */
    private static String pool(String threadName) {
        return threadName.replaceAll("[-#]?\\d+$", "");
    }

    /** CPU milliseconds per {@code per} units of work of each thread that used at least 1% of the total, by name. */
    String perUnit(long units, long per) {
        Map<String, Long> byName = new TreeMap<>();
        long total = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long now = THREADS.getThreadCpuTime(id);
            ThreadInfo info = THREADS.getThreadInfo(id);
            if (now < 0 || info == null) {
                continue;
            }
            long used = now - startNanos.getOrDefault(id, 0L);
            byName.merge(pool(info.getThreadName()), used, Long::sum);
            total += used;
        }
        StringBuilder b = new StringBuilder();
        long busiest = 0;
        for (Map.Entry<String, Long> e : byName.entrySet()) {
            if (e.getValue() * 100 >= total) {
                b.append(b.length() == 0 ? "" : ", ").append(String.format("%s %.1f", e.getKey(),
                        e.getValue() / 1e6 * per / units));
                busiest = Math.max(busiest, e.getValue());
            }
        }
        return String.format("CPU ms per %,d: %s (all threads %.1f; the busiest bounds the rate at %,.0f/s)", per, b,
                total / 1e6 * per / units, units / (busiest / 1e9));
    }
}
