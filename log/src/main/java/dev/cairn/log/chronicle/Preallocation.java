package dev.cairn.log.chronicle;

import dev.cairn.log.LogFullException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import net.openhft.posix.PosixAPI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reserves disk blocks ahead of the appender in the current cycle file (fallocate), so that a full disk is an
 * error before an entry is written instead of a SIGBUS while Chronicle writes it through its memory map (which the
 * JVM reports as an {@link InternalError} and which tears the entry). One system call per {@link #AHEAD} bytes.
 * Where fallocate is missing the appender runs without it, relying on the free-space reserve.
 */
final class Preallocation implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Preallocation.class);
    /** How far ahead of an entry's end blocks are reserved when they run out. */
    static final long AHEAD = 8L << 20;
    /** Room kept after an entry for what Chronicle writes past it (index arrays). */
    static final long SLACK = 1L << 20;
    private static final int O_RDWR = 2;

    private PosixAPI posix;
    private File file;
    private int fd = -1;
    private long reservedTo;

    Preallocation() {
        try {
            posix = PosixAPI.posix();
        } catch (RuntimeException | LinkageError e) {
            disable("no POSIX access: " + e);
        }
    }

    /**
     * Makes sure the blocks of {@code file} from {@code from} to {@code to} (plus slack) exist.
     *
     * @throws LogFullException when the filesystem has no room for them
     */
    void reserve(File f, long from, long to) {
        if (posix == null || f == null) {
            return;
        }
        if (!f.equals(file)) {
            close();
            try {
                fd = posix.open(f.getPath(), O_RDWR, 0);
            } catch (RuntimeException e) {
                disable("cannot open " + f + ": " + e);
                return;
            }
            if (fd < 0) {
                disable("cannot open " + f + ": errno " + posix.lastError());
                return;
            }
            file = f;
            reservedTo = 0;
        }
        if (to + SLACK <= reservedTo) {
            return;
        }
        long start = Math.max(from, reservedTo);
        long end = to + SLACK + AHEAD;
        if (posix.fallocate(fd, 0, start, end - start) != 0) {
            // The binding does not report errno reliably: a disk without the room is full, anything else is not.
            if (usable(f) < end - start) {
                throw new LogFullException("the log's disk has no room for the next " + (end - start) + " bytes");
            }
            disable("fallocate failed with errno " + posix.lastError());
            return;
        }
        reservedTo = end;
    }

    private static long usable(File f) {
        try {
            return Files.getFileStore(f.toPath()).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    private void disable(String why) {
        LOG.warn("log preallocation is off ({}); a full disk is refused by the free-space reserve only", why);
        close();
        posix = null;
    }

    @Override
    public void close() {
        if (fd >= 0) {
            posix.close(fd);
            fd = -1;
        }
        file = null;
    }
}
