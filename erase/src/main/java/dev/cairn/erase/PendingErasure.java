package dev.cairn.erase;

import dev.cairn.log.DirectorySync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The mark an erasure leaves in the log's directory from before it changes the log until the tables have been rebuilt
 * without what it erased: while it is there the tables may still hold erased data, so no Cairn process starts on the
 * data, and the next {@code cairn erase} finishes the erasure first.
 */
public final class PendingErasure {
    static final String FILE = "erasure.pending";

    private PendingErasure() {
    }

    public static boolean exists(Path logDir) {
        return Files.exists(logDir.resolve(FILE));
    }

    /** Refuses to start a process on data whose erasure was interrupted. */
    public static void refuseToStart(Path logDir) {
        if (exists(logDir)) {
            throw new IllegalStateException("an erasure of this data was interrupted (" + logDir.resolve(FILE)
                    + "): its tables may still hold what it erased. Run 'cairn erase' again to finish it, then start");
        }
    }

    /** Sets the mark, synced, before the erasure changes anything. */
    public static void mark(Path logDir) {
        try (FileChannel ch = FileChannel.open(logDir.resolve(FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark the erasure as begun: " + e.getMessage(), e);
        }
        DirectorySync.sync(logDir);
    }

    /** Takes the mark away once the tables are rebuilt. */
    public static void clear(Path logDir) {
        try {
            Files.deleteIfExists(logDir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark the erasure as finished: " + e.getMessage(), e);
        }
        DirectorySync.sync(logDir);
    }
}
