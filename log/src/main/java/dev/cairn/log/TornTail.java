package dev.cairn.log;

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
 * end. The repair voids each entry of it in place (it becomes a {@link EntryVoided}: same length, same index, so
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

    /** The torn entries after the synced position, oldest first, and every cycle file holding an entry after it. */
    record Tail(List<Torn> torn, Set<File> files) {
    }

    private TornTail() {
    }

    /** What follows the synced position. */
    static Tail find(SingleChronicleQueue queue, long synced) {
        long last = queue.lastIndex();
        List<Torn> torn = new ArrayList<>();
        Set<File> files = new LinkedHashSet<>();
        Tail tail = new Tail(torn, files);
        if (last < 0 || (synced != SyncedPosition.UNKNOWN && synced >= last)) {
            return tail;
        }
        try (ExcerptTailer tailer = queue.createTailer()) {
            if (synced == SyncedPosition.UNKNOWN) {
                if (!tailer.moveToIndex(last)) {
                    return tail;
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
                    String problem = torn.isEmpty() ? problem(bytes, dc.index()) : "follows a torn entry";
                    if (problem != null) {
                        torn.add(new Torn(dc.index(), tailer.currentFile(), position, length, problem));
                    }
                }
            }
        }
        return tail;
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

    /** Voids the torn entries of {@code tail} in place, then syncs every file of the tail. */
    static void repair(Tail tail) {
        for (Torn t : tail.torn()) {
            if (t.length() < EventCodec.VOID_MIN) {
                throw new IllegalStateException("log entry at index " + Long.toHexString(t.index()) + " is " + t.length()
                        + " bytes, too short to be voided; it is not an entry Cairn wrote");
            }
            Bytes<byte[]> entry = Bytes.allocateElasticOnHeap(t.length());
            EventCodec.encodeVoid(entry, t.length());
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
