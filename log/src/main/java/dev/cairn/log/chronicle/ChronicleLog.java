package dev.cairn.log.chronicle;

import dev.cairn.log.Event;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * The event log as a Chronicle Queue in one directory. Appenders and tailers are bound to the thread that creates
 * them (Chronicle checks this). A position is Chronicle's index, {@code (cycle << 32 | sequence)}: what the
 * projector's watermark has always stored.
 */
public final class ChronicleLog implements EventLog {
    static {
        // Chronicle phones home and prints a banner unless told otherwise; the launcher sets these too.
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ChronicleLog.class);

    /**
     * Chronicle's memory-mapping chunk. An entry may take at most a quarter of it (Chronicle's overlap, the part of
     * the next chunk mapped with each one): 128 MiB holds entries of 32 MiB, room for a body of the largest
     * {@code --max-body} with the fields the sequencer adds. Files are sparse, so disk use is what entries take.
     */
    public static final long BLOCK_SIZE = 128L << 20;

    private final Path dir;
    private final SingleChronicleQueue queue;
    private final SyncedPosition synced;

    private ChronicleLog(Path dir, SingleChronicleQueue queue, SyncedPosition synced) {
        this.dir = dir;
        this.queue = queue;
        this.synced = synced;
    }

    /** Opens (creating if needed) the log in {@code dir}, with msync on every {@link ChronicleAppender#sync()}. */
    public static ChronicleLog open(Path dir) {
        return open(dir, BLOCK_SIZE);
    }

    /**
     * Opens the log with another block size, which bounds its entries ({@link #maxEntryBytes()}); every process
     * of a log must use the same one. Tests use a small one to reach the limit with small events.
     */
    public static ChronicleLog open(Path dir, long blockSize) {
        LogRewrite.resume(dir); // a rewrite a killed process left half done is finished before anything reads
        SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).blockSize(blockSize)
                .syncMode(SyncMode.SYNC).build();
        try {
            return new ChronicleLog(dir, queue, SyncedPosition.open(dir));
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
    }

    /** Chronicle's limit for one entry. */
    @Override
    public long maxEntryBytes() {
        return queue.overlapSize();
    }

    /** The log's directory, for tools that read the queue's files themselves (the benchmarks). */
    public Path dir() {
        return dir;
    }

    /** The log's directory. */
    @Override
    public String location() {
        return dir.toString();
    }

    @Override
    public ChronicleAppender appender() {
        return appender(true);
    }

    ChronicleAppender appender(boolean preallocate) {
        return appender(preallocate, ExcerptAppender::sync);
    }

    /** @param msync Chronicle's sync of an appender's memory map; another only in tests of a sync that fails */
    ChronicleAppender appender(boolean preallocate, Consumer<ExcerptAppender> msync) {
        repairTornTail();
        return new ChronicleAppender(queue, synced, maxEntryBytes(), preallocate, msync);
    }

    @Override
    public void rewrite(Map<Long, Event> replacements) {
        rewrite(prepareRewrite(replacements));
    }

    @Override
    public Rewrite prepareRewrite(Map<Long, Event> replacements) {
        return new LogRewrite.Prepared(LogRewrite.plan(queue, replacements));
    }

    @Override
    public void rewrite(Rewrite prepared) {
        LogRewrite.write(dir, ((LogRewrite.Prepared) prepared).writes());
    }

    /** @throws UnreadableEndException when the log cannot be read up to where Chronicle would append next */
    @Override
    public List<String> repairTornTail() {
        long record = synced.get();
        TornTail.Tail tail = TornTail.find(queue, record);
        if (tail.endUnreadable()) {
            throw new UnreadableEndException(unreadableEnd(tail));
        }
        TornTail.repair(tail);
        synced.set(lastPosition());
        List<String> voided = tail.torn().stream()
                .map(t -> "voided the torn log entry at index " + Long.toHexString(t.index()) + ": " + t.problem()).toList();
        voided.forEach(LOG::warn);
        return voided;
    }

    /**
     * What {@code cairn log check --truncate-torn-tail} does, with every other process on the log stopped: voids the
     * torn tail in place or, when the log cannot be read up to its end, rewrites its last cycle file without it.
     *
     * @return a line per repair made
     */
    public static List<String> truncateTornTail(Path dir) {
        long synced;
        try (ChronicleLog log = open(dir)) {
            try {
                return log.repairTornTail();
            } catch (UnreadableEndException e) {
                synced = log.synced.get();
            }
        }
        long dropped = CycleRewrite.rewriteLastCycle(dir, synced);
        List<String> done = new java.util.ArrayList<>();
        done.add("rewrote the log's last cycle file without the " + dropped + " entries of its torn tail");
        try (ChronicleLog log = open(dir)) {
            done.addAll(log.repairTornTail());
        }
        return done;
    }

    private String unreadableEnd(TornTail.Tail tail) {
        return "the log in " + dir + " cannot be read past index " + Long.toHexString(tail.lastReadable())
                + ", though Chronicle's write position lies past it: the bytes of entries that were never synced are"
                + " gone (a crash or a file cut short), and an append would land where no reader reaches; "
                + "stop every Cairn process on this log and run 'cairn log check --truncate-torn-tail'";
    }

    /** The entries after the last synced position that fail their check, without changing anything. */
    public List<String> tornTail() {
        return TornTail.find(queue, synced.get()).torn().stream()
                .map(t -> "log entry at index " + Long.toHexString(t.index()) + ": " + t.problem()).toList();
    }

    @Override
    public LogCheck check() {
        long record = synced.get();
        TornTail.Tail tail = TornTail.find(queue, record);
        java.util.Set<Long> torn = new java.util.HashSet<>();
        tail.torn().forEach(t -> torn.add(t.index()));
        List<String> damaged = new java.util.ArrayList<>();
        long entries = 0;
        long voided = 0;
        try (net.openhft.chronicle.queue.ExcerptTailer tailer = queue.createTailer()) {
            tailer.toStart();
            while (true) {
                try (net.openhft.chronicle.wire.DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    entries++;
                    long index = dc.index();
                    String problem = TornTail.problem(dc.wire().bytes(), index);
                    if (problem != null && !torn.contains(index)) {
                        damaged.add(problem);
                    } else if (problem == null && TornTail.isVoid(dc.wire().bytes())) {
                        voided++;
                    }
                }
            }
        }
        List<String> tornTail = new java.util.ArrayList<>(tail.torn().stream()
                .map(t -> "log entry at index " + Long.toHexString(t.index()) + ": " + t.problem()).toList());
        if (tail.endUnreadable()) {
            tornTail.add(unreadableEnd(tail));
        }
        return new LogCheck(entries, voided, lastPosition(), record, damaged, tornTail);
    }

    /** The position of the last entry known to be synced; {@link SyncedPosition#UNKNOWN} when there is no record. */
    public long syncedPosition() {
        return synced.get();
    }

    @Override
    public ChronicleTailer tailer(long after) {
        return new ChronicleTailer(queue.createTailer(), after, () -> Long.MAX_VALUE);
    }

    @Override
    public ChronicleTailer syncedTailer(long after) {
        return new ChronicleTailer(queue.createTailer(), after, synced::get);
    }

    @Override
    public long lastPosition() {
        long last = queue.lastIndex();
        return last < 0 ? START : last;
    }

    @Override
    public long lastSyncedPosition() {
        return Math.min(lastPosition(), synced.get()); // no record (UNKNOWN, the largest long): all of it is synced
    }

    @Override
    public long entriesAfter(long index) {
        long last = queue.lastIndex();
        if (last < 0 || last <= index) {
            return 0;
        }
        long from = index < 0 ? queue.firstIndex() : index;
        // countExcerpts counts [from, last): as many as (index, last] when starting at the watermark's own entry.
        return queue.countExcerpts(from, last) + (index < 0 ? 1 : 0);
    }

    @Override
    public void close() {
        queue.close();
    }
}
