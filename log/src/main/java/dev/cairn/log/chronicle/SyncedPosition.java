package dev.cairn.log.chronicle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The index of the last entry a writer synced, in a file of 8 bytes beside the log ({@value #FILE}), mapped by every
 * process that opens the log: the writer stores the index after each sync (a memory store, no system call), and a
 * projector in any process reads it to apply only entries that are durable. It may lag behind what was synced (it is
 * written after the sync, and not synced itself), never run ahead of it, so "after the synced position" always
 * covers every entry a crash could have torn.
 *
 * <p>A log written by an earlier release has no record ({@link #UNKNOWN}): its readers take every entry as synced.
 */
final class SyncedPosition {
    static final String FILE = "synced";
    /** No record yet: the log was last written by a release before this file existed. */
    static final long UNKNOWN = Long.MAX_VALUE;
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ByteBuffer map;

    private SyncedPosition(ByteBuffer map) {
        this.map = map;
    }

    static SyncedPosition open(Path logDir) {
        try (FileChannel ch = FileChannel.open(logDir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (ch.size() < Long.BYTES) {
                // Zeros read as UNKNOWN too, so a second process creating it at the same moment changes nothing.
                ch.write(ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(0, UNKNOWN), 0);
            }
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, Long.BYTES);
            return new SyncedPosition(map);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + logDir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    /** The index of the last synced entry, -1 when none, or {@link #UNKNOWN}. */
    long get() {
        long v = (long) LONG.getVolatile(map, 0);
        return v == 0 ? UNKNOWN : v;
    }

    void set(long index) {
        LONG.setVolatile(map, 0, index);
    }
}
