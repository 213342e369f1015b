package dev.cairn.log.chronicle;

import dev.cairn.log.DirectorySync;
import dev.cairn.log.EntryVoided;
import dev.cairn.log.Event;
import dev.cairn.log.EventCodec;
import dev.cairn.log.StatementsStored;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Rewrites log entries in place, each with new bytes of exactly its own length (an erasure's statements, or a void
 * entry), as {@link TornTail} voids torn entries: Chronicle's index, every sequence number and every later entry stay
 * where they were. Only with every other process on the log stopped.
 *
 * <p>Crash-safe through a plan: every entry's file, position and new bytes are written to {@value #PLAN} and synced
 * before the first entry is touched; the plan is deleted once every entry is written and synced. A process killed
 * before the plan was whole changed nothing; one killed after leaves the plan, which the next {@link ChronicleLog#open}
 * writes again (each write is idempotent) before anything reads the log.
 */
final class LogRewrite {
    static final String PLAN = "rewrite.plan";
    /** Unchanged bytes between two changed ranges that one write covers rather than make two. */
    private static final int GAP = 64;
    private static final long MAGIC = 0x4341_4952_4e52_5731L; // "CAIRNRW1"

    /** One entry's new bytes and where they go. */
    record Write(String file, long position, byte[] bytes) {
    }

    private LogRewrite() {
    }

    /** A rewrite's writes, worked out ahead ({@link dev.cairn.log.EventLog#prepareRewrite}). */
    record Prepared(List<Write> writes) implements dev.cairn.log.EventLog.Rewrite {
        @Override
        public long bytes() {
            return writes.stream().mapToLong(w -> w.bytes().length).sum();
        }
    }

    /** Writes {@code writes}: their plan first, synced, then each in place. */
    static void write(Path dir, List<Write> writes) {
        if (writes.isEmpty()) {
            return;
        }
        try (RewriteLock held = RewriteLock.acquire(dir)) {
            writePlan(dir, writes);
            apply(dir, writes);
        }
    }

    /**
     * Where each entry of {@code replacements} (by index) changes, and the bytes it changes to, checked to fit; nothing
     * is written. Statements go slot by slot (type 6 or 7) over an entry of type 1, 4, 6 or 7, else as a type 5 entry;
     * an {@link EntryVoided} as a void entry.
     *
     * @throws IllegalArgumentException when an index is not in the log or its replacement does not fit in its entry
     */
    static List<Write> plan(SingleChronicleQueue queue, Map<Long, Event> replacements) {
        List<Write> writes = new ArrayList<>(replacements.size());
        try (ExcerptTailer tailer = queue.createTailer()) {
            for (Map.Entry<Long, Event> r : replacements.entrySet()) {
                long index = r.getKey();
                if (!tailer.moveToIndex(index)) {
                    throw new IllegalArgumentException("log index " + Long.toHexString(index) + " is not in the log");
                }
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent() || dc.index() != index) {
                        throw new IllegalArgumentException("log entry " + Long.toHexString(index) + " cannot be read");
                    }
                    Bytes<?> bytes = dc.wire().bytes();
                    long position = bytes.readPosition();
                    byte[] old = new byte[(int) bytes.readRemaining()];
                    bytes.read(old);
                    byte[] fresh = encode(r.getValue(), old, index);
                    String file = tailer.currentFile().getName();
                    for (int[] range : changed(old, fresh)) {
                        writes.add(new Write(file, position + range[0], Arrays.copyOfRange(fresh, range[0], range[1])));
                    }
                }
            }
        }
        return writes;
    }

    /** Finishes a rewrite that a killed process left: writes its plan again, then deletes it. */
    static void resume(Path dir) {
        if (!Files.exists(dir.resolve(PLAN))) {
            return; // the usual case, without taking the lock (nor making its file in a directory not yet a log)
        }
        try (RewriteLock held = RewriteLock.acquire(dir)) {
            resumeHeld(dir);
        }
    }

    private static void resumeHeld(Path dir) {
        Path plan = dir.resolve(PLAN);
        List<Write> writes;
        try {
            writes = readPlan(plan);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the log rewrite plan " + plan + ": " + e.getMessage(), e);
        }
        if (writes == null) { // not whole: the process was killed before it wrote any entry
            delete(plan, dir);
            return;
        }
        apply(dir, writes);
    }

    /**
     * The ranges [from, to) where {@code fresh} differs from {@code old}, ranges closer than {@link #GAP} bytes joined:
     * what a rewrite writes, so that erasing one statement of a large entry writes its slot, not the entry.
     */
    static List<int[]> changed(byte[] old, byte[] fresh) {
        List<int[]> out = new ArrayList<>();
        int end = fresh.length;
        for (int from = mismatch(old, fresh, 0, end); from >= 0; from = mismatch(old, fresh, out.get(out.size() - 1)[1], end)) {
            int to = from + 1;
            for (int next; (next = mismatch(old, fresh, to, Math.min(end, to + GAP))) >= 0; ) {
                to = next + 1;
            }
            out.add(new int[] {from, to});
        }
        return out;
    }

    /** The first index from {@code from} to {@code to} where {@code old} and {@code fresh} differ, or -1. */
    private static int mismatch(byte[] old, byte[] fresh, int from, int to) {
        int i = Arrays.mismatch(old, from, to, fresh, from, to);
        return i < 0 ? -1 : from + i;
    }

    /**
     * The bytes that take the place of entry {@code old}: a void entry, or statements slot by slot over an entry as an
     * ingest or an earlier slot-by-slot rewrite wrote it (only the changed statements' bytes and the checksum differ),
     * or else as a type 5 entry.
     */
    private static byte[] encode(Event event, byte[] old, long index) {
        int length = old.length;
        Bytes<byte[]> out = Bytes.allocateElasticOnHeap(length);
        if (event instanceof StatementsStored s) {
            if (EventCodec.encodeInSlots(old, s, out)) {
                if (out.writePosition() != length) {
                    throw new IllegalStateException("log entry " + Long.toHexString(index) + " rewritten slot by slot "
                            + "is " + out.writePosition() + " bytes, not its " + length);
                }
                return out.toByteArray();
            }
            out.clear();
        }
        if (event instanceof StatementsStored s) {
            if (!EventCodec.encodeRewritten(s, length, out)) {
                throw new IllegalArgumentException("the rewritten log entry " + Long.toHexString(index)
                        + " does not fit in its " + length + " bytes");
            }
        } else if (event instanceof EntryVoided) {
            if (length < EventCodec.VOID_MIN) {
                throw new IllegalArgumentException("log entry " + Long.toHexString(index) + " is too short to void");
            }
            EventCodec.encodeVoid(out, length);
        } else {
            throw new IllegalArgumentException("a log entry is rewritten as statements or voided, not as " + event);
        }
        byte[] bytes = new byte[length];
        System.arraycopy(out.underlyingObject(), 0, bytes, 0, length);
        return bytes;
    }

    static void writePlan(Path dir, List<Write> writes) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeLong(MAGIC);
            out.writeInt(writes.size());
            for (Write w : writes) {
                out.writeUTF(w.file());
                out.writeLong(w.position());
                out.writeInt(w.bytes().length);
                out.write(w.bytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.toByteArray());
        ByteBuffer tail = ByteBuffer.allocate(8).putLong(crc.getValue()).flip();
        Path tmp = dir.resolve(PLAN + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            // The plan holds statements: the owner's alone, as the log's files are.
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: created plain below
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log rewrite plan: " + e.getMessage(), e);
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            writeFully(ch, ByteBuffer.wrap(buffer.toByteArray()), 0);
            writeFully(ch, tail, buffer.size());
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the log rewrite plan: " + e.getMessage(), e);
        }
        try {
            Files.move(tmp, dir.resolve(PLAN), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot put the log rewrite plan in place: " + e.getMessage(), e);
        }
        DirectorySync.sync(dir);
    }

    /** The plan's writes, or null when it is not whole (its checksum fails). */
    private static List<Write> readPlan(Path plan) throws IOException {
        byte[] all = Files.readAllBytes(plan);
        if (all.length < 8 + 12) {
            return null;
        }
        CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 8);
        if (ByteBuffer.wrap(all, all.length - 8, 8).getLong() != crc.getValue()) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(all, 0, all.length - 8))) {
            if (in.readLong() != MAGIC) {
                throw new IOException("not a log rewrite plan");
            }
            int n = in.readInt();
            List<Write> writes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String file = in.readUTF();
                long position = in.readLong();
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                writes.add(new Write(file, position, bytes));
            }
            return writes;
        }
    }

    private static void apply(Path dir, List<Write> writes) {
        Set<String> files = new LinkedHashSet<>();
        for (Write w : writes) {
            files.add(w.file());
            try (FileChannel ch = FileChannel.open(dir.resolve(w.file()), StandardOpenOption.WRITE)) {
                writeFully(ch, ByteBuffer.wrap(w.bytes()), w.position());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot rewrite the log entry at " + w.file() + ":" + w.position() + ": "
                        + e.getMessage(), e);
            }
        }
        for (String f : files) {
            TornTail.sync(new File(dir.toFile(), f));
        }
        delete(dir.resolve(PLAN), dir);
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long position = at;
        while (b.hasRemaining()) {
            position += ch.write(b, position);
        }
    }

    private static void delete(Path plan, Path dir) {
        try {
            Files.deleteIfExists(plan);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the log rewrite plan " + plan + ": " + e.getMessage(), e);
        }
        DirectorySync.sync(dir);
    }
}
