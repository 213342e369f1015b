package dev.cairn.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The CPU time another process has used, in all and on its threads of one name, read from /proc (Linux): what a
 * client made a server spend, measured outside it. The kernel counts in clock ticks of 10 ms (USER_HZ is 100 on
 * every Linux architecture), so a measured span should hold many of them.
 */
final class ProcessCpu {
    static final long TICK_NANOS = 10_000_000L;
    /** HotSpot's JIT compiler threads ("C1 CompilerThread0", "C2 CompilerThread1", cut to 15 characters by /proc). */
    private static final Pattern COMPILER_THREAD = Pattern.compile("C[12] CompilerThre");

    /**
     * CPU nanoseconds at one moment: the whole process's, that of its threads whose name starts with a prefix, and
     * that of the JIT compiler's threads.
     */
    record Sample(long totalNanos, long threadsNanos, int threads, long compilerNanos) {
        /** The CPU used from {@code earlier} to this sample. */
        Sample minus(Sample earlier) {
            return new Sample(totalNanos - earlier.totalNanos, threadsNanos - earlier.threadsNanos, threads,
                    compilerNanos - earlier.compilerNanos);
        }

        /**
         * The process's CPU apart from the JIT compiler's: what the requests themselves cost. A young JVM compiles
         * each path as it gets hot, once, and on a server a few thousand requests old that is a third or more of its
         * CPU, varying run to run with what was compiled before.
         */
        long withoutCompilerNanos() {
            return totalNanos - compilerNanos;
        }
    }

    private final long pid;
    private final String threadPrefix;

    /** @param threadPrefix the start of the names of the threads counted on their own ({@code cairn-verify-}) */
    ProcessCpu(long pid, String threadPrefix) {
        this.pid = pid;
        this.threadPrefix = threadPrefix;
    }

    /** User plus system CPU time of process {@code pid} so far, all its threads together, in nanoseconds. */
    static long nanos(long pid) {
        try {
            return ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))) * TICK_NANOS;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid + " from /proc", e);
        }
    }

    /** The CPU time used so far; threads that ended are in the total only. */
    Sample sample() {
        Path proc = Path.of("/proc", Long.toString(pid));
        long threads = 0;
        int count = 0;
        long compiler = 0;
        try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm"));
                    if (name.startsWith(threadPrefix)) {
                        threads += ticks(Files.readString(task.resolve("stat")));
                        count++;
                    } else if (COMPILER_THREAD.matcher(name).lookingAt()) {
                        compiler += ticks(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException e) {
                    // the thread ended while the list was read: its time is in the process's total
                }
            }
            return new Sample(ticks(Files.readString(proc.resolve("stat"))) * TICK_NANOS, threads * TICK_NANOS, count,
                    compiler * TICK_NANOS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid + " from /proc", e);
        }
    }

    /** utime + stime of a /proc stat line, in ticks (the name in parentheses may hold spaces, so count after it). */
    private static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
