package dev.cairn.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The disk's own synchronous-write latency, the physical limit of a durable write, measured beside a benchmark in the
 * same run: {@value #SAMPLES} runs of {@code dd if=/dev/zero bs=4k count=}{@value #WRITES}{@code  oflag=dsync} in the
 * directory the benchmark writes to (each 4 KiB write waits for the disk), reported as the median and p90 of the
 * per-write latency of each run. {@link #measure(Path, int)} writes blocks of another size: the limit of a sync that
 * makes an entry of that size durable.
 */
record DiskProbe(Path dir, int blockBytes, double medianMillis, double p90Millis) {
    static final int SAMPLES = 20;
    static final int WRITES = 20;
    static final int PAGE = 4096;
    private static final Pattern SECONDS = Pattern.compile("copied, ([0-9.]+(?:e-?[0-9]+)?) s");

    static DiskProbe measure(Path dir) throws IOException, InterruptedException {
        return measure(dir, PAGE);
    }

    /** The block a probe of {@code bytes} writes: whole 4 KiB pages, as a sync writes them, one at least. */
    static int block(long bytes) {
        return (int) (Math.max(1, (bytes + PAGE - 1) / PAGE) * PAGE);
    }

    /** The latency of a synchronous write of {@code bytes}, in a block of {@link #block(long)}. */
    static DiskProbe measure(Path dir, int bytes) throws IOException, InterruptedException {
        int block = block(bytes);
        Files.createDirectories(dir);
        Path file = dir.resolve("dsync-probe");
        double[] millis = new double[SAMPLES];
        try {
            for (int i = 0; i < SAMPLES; i++) {
                Process p = new ProcessBuilder("dd", "if=/dev/zero", "of=" + file, "bs=" + block, "count=" + WRITES,
                        "oflag=dsync").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new IOException("dd failed in " + dir + ": " + out);
                }
                Matcher m = SECONDS.matcher(out);
                if (!m.find()) {
                    throw new IOException("cannot read dd's time: " + out);
                }
                millis[i] = Double.parseDouble(m.group(1)) * 1000 / WRITES;
            }
        } finally {
            Files.deleteIfExists(file);
        }
        Arrays.sort(millis);
        return new DiskProbe(dir, block, millis[SAMPLES / 2], millis[(int) Math.ceil(SAMPLES * 0.9) - 1]);
    }

    /** Synchronous writes per second one writer that waits for each can make: the ceiling of one closed-loop client. */
    double syncsPerSecond() {
        return 1000 / medianMillis;
    }

    String line() {
        return String.format("Disk (the physical limit, same run): a %s write with O_DSYNC in %s takes %.3f ms "
                        + "(median of %d runs of %d writes; p90 %.3f ms), so one writer that waits for each sync can make "
                        + "%,.0f durable writes/s, and N closed-loop writers sharing each sync N times that.", size(), dir,
                medianMillis, SAMPLES, WRITES, p90Millis, syncsPerSecond());
    }

    /** The block size as a reader takes it in: "4 KiB". */
    String size() {
        return String.format("%,d KiB", blockBytes / 1024);
    }
}
