package dev.cairn.log.chronicle;

import dev.cairn.log.LogFullException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the blocks ahead of the appender in the current cycle file before Chronicle does, with zeros, and syncs
 * them, so that:
 * <ul>
 *   <li>a full disk is an error before an entry is written instead of a SIGBUS while Chronicle writes it through
 *       its memory map (which the JVM reports as an {@link InternalError} and which tears the entry);</li>
 *   <li>each sync of an entry writes its data pages only. Blocks that are merely reserved (fallocate) are
 *       "unwritten" extents, and the first write into one converts it, a metadata change that makes every sync a
 *       journal commit as well: on this project's machines a 4 KiB synchronous overwrite of written blocks took 0.12
 *       ms, of fallocated ones 0.21 ms, of new ones 0.24 ms. Databases zero-fill their write-ahead logs for the same
 *       reason (PostgreSQL's WAL segments).</li>
 * </ul>
 * The zeros go one page ({@value #PAGE} bytes) to a write. A kernel whose page cache holds a file in large folios
 * (XFS since Linux 5.18, ext4 since 6.16) gives a write of n bytes a folio of up to n bytes, and a folio is dirtied,
 * and written back by the msync of an entry, whole: with zeros written a megabyte at a time, a sync wrote back up to a
 * megabyte (99 KB per statement under 8 durable writers), the sequencer dirtied 365 MB/s at 3,000 statements/s, and
 * one durable writer's POST took twice as long (bench/ab-writes: p50 0.63 vs 0.28 ms). Page-sized writes leave page-sized folios, so a sync writes the pages its
 * entries touched. {@link #AHEAD} / {@value #PAGE} writes and one fdatasync per {@link #AHEAD} bytes of log. Where the
 * file cannot be opened the appender runs without it, relying on the free-space reserve.
 *
 * <p>Once the appender is past half of what is written ahead, the next {@link #AHEAD} bytes are written on a thread of
 * this class's own while it goes on: written inline they stopped the appender for the 8 MiB and their fdatasync (~40
 * ms) once in every 8 MiB of log, which a forwarding target's POSTs of 500 statements (~700 KB, one entry each) paid
 * once in a dozen. The appender writes nothing past what is written and synced already, so the two never write the
 * same bytes; it waits for a stretch in progress when it needs it, and writes inline when that stretch failed (a full
 * disk is then refused there, as before).
 */
final class Preallocation implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Preallocation.class);
    /** How far ahead of an entry's end blocks are written when they run out. */
    static final long AHEAD = 8L << 20;
    /** Room kept after an entry for what Chronicle writes past it (index arrays). */
    static final long SLACK = 1L << 20;
    /** The bytes of one write of zeros: a page, the smallest folio. */
    static final int PAGE = 4096;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(PAGE);

    private boolean enabled = true;
    private File file;
    private FileChannel channel;
    /** Written and synced up to here; only the appender's thread reads or moves it. */
    private long reservedTo;
    /** The stretch being written ahead on {@link #writer}: the offset it writes up to; null when none. */
    private Future<Long> ahead;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "cairn-log-preallocate");
        t.setDaemon(true);
        return t;
    });

    /**
     * Makes sure the blocks of {@code file} from {@code from} to {@code to} (plus slack) are written and synced.
     * Nothing at or after {@code from} holds an entry yet: Chronicle writes only at its write position, on the thread
     * that calls this, so the zeros replace zeros.
     *
     * @throws LogFullException when the filesystem has no room for them
     */
    void reserve(File f, long from, long to) {
        if (!enabled || f == null) {
            return;
        }
        if (!f.equals(file)) {
            closeFile();
            try {
                channel = FileChannel.open(f.toPath(), StandardOpenOption.WRITE);
            } catch (IOException e) {
                disable("cannot open " + f + ": " + e);
                return;
            }
            file = f;
            reservedTo = 0;
        }
        if (to + SLACK > reservedTo && ahead != null) {
            awaitAhead();
        }
        if (to + SLACK <= reservedTo) {
            if (ahead == null && reservedTo - (to + SLACK) < AHEAD / 2) {
                FileChannel ch = channel;
                long aheadFrom = reservedTo;
                long aheadTo = reservedTo + AHEAD;
                ahead = writer.submit(() -> {
                    zeros(ch, aheadFrom, aheadTo);
                    return aheadTo;
                });
            }
            return;
        }
        long start = Math.max(from, reservedTo);
        long end = to + SLACK + AHEAD;
        try {
            zeros(channel, start, end);
        } catch (IOException e) {
            if (usable(f) < end - start) {
                throw new LogFullException("the log's disk has no room for the next " + (end - start) + " bytes");
            }
            disable("writing ahead failed: " + e);
            return;
        }
        reservedTo = end;
    }

    /** Where the zeros written and synced in {@code f} end: 0 when they are not written there. */
    long writtenTo(File f) {
        return enabled && f != null && f.equals(file) ? reservedTo : 0;
    }

    /** Writes zeros from {@code start} to {@code end}, a page to a write, and syncs them. */
    private static void zeros(FileChannel ch, long start, long end) throws IOException {
        for (long at = start; at < end; ) {
            ByteBuffer zeros = ZEROS.duplicate().limit((int) Math.min(PAGE - at % PAGE, end - at));
            at += ch.write(zeros, at);
        }
        ch.force(false);
    }

    /**
     * Waits for the stretch being written ahead; what it wrote counts once it is synced. One that failed is left to
     * the inline write, which tells a full disk from another failure. {@link #reservedTo} does not move while a stretch
     * is being written: the inline write waits for it first.
     */
    private void awaitAhead() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    reservedTo = ahead.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // the stretch may still be writing into the file: it must end first
                } catch (ExecutionException e) {
                    LOG.debug("writing ahead in {} failed: {}", file, e.getCause().toString());
                    return;
                }
            }
        } finally {
            ahead = null;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
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
        closeFile();
        enabled = false;
    }

    /** Lets go of the current file, once a stretch being written ahead in it has ended. */
    private void closeFile() {
        if (ahead != null) {
            awaitAhead();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("closing {}: {}", file, e.toString());
            }
            channel = null;
        }
        file = null;
    }

    @Override
    public void close() {
        closeFile();
        writer.shutdown();
    }
}
