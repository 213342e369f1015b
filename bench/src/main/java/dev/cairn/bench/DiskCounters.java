package dev.cairn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kernel's counters of the disk a directory is on ({@code /proc/diskstats}): what every process wrote to it. */
final class DiskCounters {
    private static final int SECTOR = 512;

    private DiskCounters() {
    }

    /** Bytes written to the disk that holds {@code dir} since boot, or -1 where the kernel does not say. */
    static long bytesWritten(Path dir) throws IOException {
        String device = Files.getFileStore(dir).name(); // "/dev/vda" for a directory on that disk
        if (!device.startsWith("/dev/") || !Files.isReadable(Path.of("/proc/diskstats"))) {
            return -1;
        }
        String name = device.substring("/dev/".length());
        for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 9 && f[2].equals(name)) {
                return Long.parseLong(f[9]) * SECTOR; // field 10: sectors written
            }
        }
        return -1;
    }
}
