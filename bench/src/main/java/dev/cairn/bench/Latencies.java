package dev.cairn.bench;

import java.util.Arrays;

/** Request latencies in nanoseconds, with percentiles in milliseconds. */
final class Latencies {
    private long[] nanos = new long[1024];
    private int n;

    void add(long latencyNanos) {
        if (n == nanos.length) {
            nanos = Arrays.copyOf(nanos, n * 2);
        }
        nanos[n++] = latencyNanos;
    }

    void addAll(Latencies other) {
        for (int i = 0; i < other.n; i++) {
            add(other.nanos[i]);
        }
    }

    int count() {
        return n;
    }

    /** The {@code p}-th percentile (0 to 100), in milliseconds. */
    double percentileMillis(double p) {
        if (n == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, n);
        Arrays.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * n) - 1;
        return sorted[Math.max(0, Math.min(n - 1, i))] / 1e6;
    }

    double meanMillis() {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += nanos[i];
        }
        return n == 0 ? Double.NaN : sum / 1e6 / n;
    }
}
