package dev.cairn.log.chronicle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps an in-place rewrite ({@link LogRewrite}) and a compaction ({@link LogCompaction}) of one log apart, across
 * processes and threads: an erasure's rewrite runs in the projecting process while another holds the writer lock, and
 * a compaction moves the byte positions a rewrite writes at. A lock file in the log's directory, locked by the OS for
 * other processes and by a lock per file within this one (the OS lock is per process).
 */
final class RewriteLock implements AutoCloseable {
    static final String FILE = "rewrite.lock";
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private final ReentrantLock local;
    private final FileChannel channel;
    private final FileLock lock;

    private RewriteLock(ReentrantLock local, FileChannel channel, FileLock lock) {
        this.local = local;
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits for the log in {@code dir} to be neither rewritten nor compacted by anyone else, and holds it so. */
    static RewriteLock acquire(Path dir) {
        Path file = dir.resolve(FILE).toAbsolutePath().normalize();
        ReentrantLock local = IN_PROCESS.computeIfAbsent(file, f -> new ReentrantLock());
        local.lock();
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            return new RewriteLock(local, channel, channel.lock());
        } catch (IOException e) {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // the lock was not taken: nothing more to release
            }
            local.unlock();
            throw new UncheckedIOException("cannot lock the log against concurrent rewrites: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the log's rewrite lock: " + e.getMessage(), e);
        } finally {
            local.unlock();
        }
    }
}
