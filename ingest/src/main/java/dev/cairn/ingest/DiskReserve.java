package dev.cairn.ingest;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The free space writes must leave on the filesystems of the log and of a local database: below it the sequencer
 * refuses writes (507) and readiness says why, so the log and the projector never meet a full disk. The free
 * space is read at most once per {@link #CHECK_NANOS} (a statvfs per filesystem), not once per write.
 */
public final class DiskReserve {
    /** No reserve: nothing is checked. */
    public static final DiskReserve NONE = new DiskReserve(List.of(), 0);
    static final long CHECK_NANOS = 5_000_000;

    private final List<Path> paths;
    private final List<FileStore> stores = new ArrayList<>();
    private final long reserveBytes;
    private volatile long checkedAt;
    private volatile String shortfall;
    private volatile boolean checked;

    /**
     * @param paths        a file or directory on each filesystem to watch (that exist, or whose parent does)
     * @param reserveBytes the free bytes each must keep
     */
    public DiskReserve(List<Path> paths, long reserveBytes) {
        this.paths = List.copyOf(paths);
        this.reserveBytes = reserveBytes;
    }

    /** Null while every filesystem has its reserve free, else what is short, for an error message. */
    public String shortfall() {
        if (reserveBytes <= 0 || paths.isEmpty()) {
            return null;
        }
        long now = System.nanoTime();
        if (!checked || now - checkedAt > CHECK_NANOS) {
            shortfall = measure();
            checkedAt = now;
            checked = true;
        }
        return shortfall;
    }

    private synchronized String measure() {
        try {
            if (stores.isEmpty()) {
                for (Path p : paths) {
                    Path existing = p;
                    while (existing != null && !Files.exists(existing)) {
                        existing = existing.getParent();
                    }
                    stores.add(Files.getFileStore(existing == null ? p : existing));
                }
            }
            for (int i = 0; i < stores.size(); i++) {
                long free = stores.get(i).getUsableSpace();
                if (free < reserveBytes) {
                    return "the disk of " + paths.get(i) + " has " + free / (1 << 20) + " MB free, below the reserve of "
                            + reserveBytes / (1 << 20) + " MB (disk-reserve)";
                }
            }
            return null;
        } catch (IOException e) {
            stores.clear();
            return "cannot read the free space of " + paths + ": " + e.getMessage();
        }
    }
}
