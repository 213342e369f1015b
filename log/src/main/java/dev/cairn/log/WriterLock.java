package dev.cairn.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The one-sequencer-per-log rule, held as an OS file lock in the log directory: the lock dies with its process,
 * so a killed ingest never leaves it behind. The file records the holder's pid for the error message.
 */
public final class WriterLock implements AutoCloseable {
    static final String FILE = "sequencer.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private WriterLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock, or says who holds it. */
    public static WriterLock acquire(Path logDir) {
        return tryAcquire(logDir).orElseThrow(() -> new IllegalStateException("another process ("
                + holder(logDir) + ") is already appending to the log in " + logDir
                + "; one ingest (or import) writes a log at a time"));
    }

    /** Takes the lock if nobody holds it. */
    public static Optional<WriterLock> tryAcquire(Path logDir) {
        try {
            Files.createDirectories(logDir);
            FileChannel channel = FileChannel.open(logDir.resolve(FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.READ);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this same JVM (a serve and an import in one process, as in tests)
            }
            if (lock == null) {
                channel.close();
                return Optional.empty();
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return Optional.of(new WriterLock(channel, lock));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the log in " + logDir + ": " + e.getMessage(), e);
        }
    }

    private static String holder(Path logDir) {
        try {
            return Files.readString(logDir.resolve(FILE)).trim();
        } catch (IOException e) {
            return "pid unknown";
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the log lock", e);
        }
    }
}
