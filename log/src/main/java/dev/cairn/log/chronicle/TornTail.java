package dev.cairn.log.chronicle;

import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.EventCodec;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The torn-tail rule. Entries after the last synced position were never acknowledged, and a crash, a full disk or a
 * power loss may have torn them: the first of them that fails its check starts the torn tail, which runs to the log's
 * end. The repair voids each entry of it in place (it becomes a {@link dev.cairn.log.EntryVoided}: same length, same index, so
 * Chronicle's index, sequence numbers and later appends are untouched), syncs the files, and records the log's end
 * as synced. Nothing at or before the synced position is ever changed: a bad entry there is damage to report.
 *
 * <p>A log without a synced position (written by an earlier release, whose writer could tear only the entry it was
 * writing) is checked in its last entry only.
 */
final class TornTail {
    /** One torn entry: where its body is in its cycle file. */
    record Torn(long index, File file, long position, int length, String problem) {
    }

    /**
     * The torn entries after the synced position, oldest first, every cycle file holding an entry after it, and the
     * index of the last entry a reader reaches (-1: none), which is short of the log's last index when the bytes of
     * entries Chronicle recorded are gone (a file cut short, or a power loss that kept the file's header but not its
     * last pages).
     */
    record Tail(List<Torn> torn, Set<File> files, long lastReadable, boolean endUnreadable) {
    }

    private TornTail() {
    }

    /** What follows the synced position. */
    static Tail find(SingleChronicleQueue queue, long synced) {
        long last = queue.lastIndex();
        List<Torn> torn = new ArrayList<>();
        Set<File> files = new LinkedHashSet<>();
        if (last < 0 || (synced != SyncedPosition.UNKNOWN && synced > last)) {
            return new Tail(torn, files, last, false);
        }
        long lastReadable = synced == SyncedPosition.UNKNOWN ? -1 : synced;
        long lastHeader = -1;
        try (ExcerptTailer tailer = queue.createTailer()) {
            if (synced == SyncedPosition.UNKNOWN) {
                if (!tailer.moveToIndex(last)) {
                    return new Tail(torn, files, -1, false);
                }
            } else if (synced < 0) {
                tailer.toStart();
            } else {
                if (!tailer.moveToIndex(synced)) {
                    throw new IllegalStateException("the synced log index " + Long.toHexString(synced)
                            + " is not in the log; was a log cycle file deleted?");
                }
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        throw new IllegalStateException("the synced log entry " + Long.toHexString(synced) + " cannot be read");
                    }
                    // With no entry readable after it (the header of the next one lost), the write position must
                    // still be checked against it.
                    lastHeader = dc.wire().bytes().readPosition() - 4;
                }
            }
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    Bytes<?> bytes = dc.wire().bytes();
                    long position = bytes.readPosition();
                    int length = (int) bytes.readRemaining();
                    files.add(tailer.currentFile());
                    lastReadable = dc.index();
                    lastHeader = position - 4;
                    String problem = torn.isEmpty() ? problem(bytes, dc.index()) : "follows a torn entry";
                    if (problem != null) {
                        torn.add(new Torn(dc.index(), tailer.currentFile(), position, length, problem));
                    }
                }
            }
        }
        return new Tail(torn, files, lastReadable, lastHeader >= 0 && writtenPast(queue, lastReadable, lastHeader));
    }

    /**
     * Whether Chronicle's own record of where its last entry is (the cycle file's write position, from which the
     * next append continues) lies past the last entry a reader reaches: an append would then land after a gap that
     * readers never cross.
     */
    private static boolean writtenPast(SingleChronicleQueue queue, long lastReadable, long lastHeader) {
        int cycle = queue.rollCycle().toCycle(lastReadable);
        if (cycle != queue.lastCycle()) {
            return false;
        }
        var store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null) {
            return false;
        }
        try {
            return store.writePosition() > lastHeader;
        } finally {
            queue.closeStore(store);
        }
    }

    /** Why the entry at the read position of {@code bytes} is not a whole event, or null when it is one. */
    static String problem(Bytes<?> bytes, long index) {
        long at = bytes.readPosition();
        try {
            EventCodec.decode(bytes, index);
            return null;
        } catch (BadLogEntryException e) {
            return e.getMessage();
        } finally {
            bytes.readPosition(at);
        }
    }

    /** Whether the whole entry at the read position of {@code bytes} is a void one. */
    static boolean isVoid(Bytes<?> bytes) {
        long at = bytes.readPosition();
        try {
            if (bytes.readRemaining() < EventCodec.VOID_MIN || bytes.readByte() != EventCodec.FORMAT_2) {
                return false;
            }
            bytes.readSkip(4);
            return bytes.readByte() == EventCodec.TYPE_VOID;
        } finally {
            bytes.readPosition(at);
        }
    }

    /** Voids the torn entries of {@code tail} in place, then syncs every file of the tail. */
    static void repair(Tail tail) {
        for (Torn t : tail.torn()) {
            if (t.length() < EventCodec.VOID_MIN) {
                throw new IllegalStateException("log entry at index " + Long.toHexString(t.index()) + " is " + t.length()
                        + " bytes, too short to be voided; it is not an entry Cairn wrote");
            }
            Bytes<byte[]> entry = Bytes.allocateElasticOnHeap(t.length());
            EventCodec.encodeVoid(entry, t.length());
            if (entry.writePosition() != t.length()) {
                throw new IllegalStateException("a void entry of " + entry.writePosition() + " bytes for " + t.length());
            }
            try (FileChannel ch = FileChannel.open(t.file().toPath(), StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(entry.underlyingObject(), 0, t.length());
                long at = t.position();
                while (b.hasRemaining()) {
                    at += ch.write(b, at);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot void the torn log entry at index " + Long.toHexString(t.index())
                        + ": " + e.getMessage(), e);
            }
        }
        for (File f : tail.files()) {
            sync(f);
        }
    }

    static void sync(File f) {
        try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.WRITE)) {
            ch.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync " + f + ": " + e.getMessage(), e);
        }
    }
}
