package dev.cairn.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time another process (a Cairn server in a child JVM) has used, all its threads together, from Linux's
 * {@code /proc/PID/stat} (user and system time, in clock ticks of 10 ms: measure over seconds, not requests).
 */
final class ProcessCpu {
    /** {@code getconf CLK_TCK}: 100 on every Linux this runs on (x86-64 and arm64 kernels fix USER_HZ at 100). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessCpu() {
    }

    /** User plus system CPU time of process {@code pid} so far, in nanoseconds. */
    static long nanos(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
        // the command name (field 2) is in parentheses and may hold spaces: count fields after its closing one
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK; // utime, stime: fields 14 and 15
    }
}
