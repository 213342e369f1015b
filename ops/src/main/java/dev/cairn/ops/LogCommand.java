package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.LOG_DIR;

import dev.cairn.erase.PendingErasure;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogCheck;
import dev.cairn.log.WriterLock;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.log.chronicle.LogCompaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cairn log check [--truncate-torn-tail]}: the event log's integrity; {@code cairn log compact}: its space. */
@Command(name = "log", mixinStandardHelpOptions = true, description = "Inspect, repair and compact the event log.",
        subcommands = {LogCommand.Check.class, LogCommand.Compact.class})
final class LogCommand {

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Read every log entry and report those that were not written whole: a torn tail (after the "
                    + "last synced entry, never acknowledged) or damage before it. Exit 0 when the log is whole, 1 if not.")
    static final class Check implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Option(names = "--truncate-torn-tail",
                description = "Void the torn tail (stop every Cairn process on this log first); nothing at or before "
                        + "the last synced entry is ever changed.")
        boolean truncate;

        @Override
        public Integer call() {
            Settings s = options.settings();
            if (!Files.isDirectory(s.get(LOG_DIR))) {
                System.err.println("cairn log check: there is no log at " + s.get(LOG_DIR));
                return 1;
            }
            if (truncate) {
                Optional<WriterLock> lock = WriterLock.tryAcquire(s.get(LOG_DIR));
                if (lock.isEmpty()) {
                    System.err.println("cairn log check: another process is appending to the log in " + s.get(LOG_DIR)
                            + "; stop it first");
                    return 1;
                }
                try (WriterLock held = lock.get()) {
                    List<String> repaired = ChronicleLog.truncateTornTail(s.get(LOG_DIR));
                    repaired.forEach(System.out::println);
                    if (repaired.isEmpty()) {
                        System.out.println("no torn tail to truncate");
                    }
                } catch (IllegalStateException e) {
                    System.err.println("cairn log check: " + e.getMessage());
                    return 1;
                }
            }
            LogCheck check;
            try (EventLog log = ChronicleLog.open(s.get(LOG_DIR))) {
                check = log.check();
            }
            System.out.printf("%,d log entries, last index %s, last synced %s%s%n", check.entries(),
                    Long.toHexString(check.lastPosition()), check.syncedPosition() == Long.MAX_VALUE ? "not recorded"
                            : Long.toHexString(check.syncedPosition()),
                    check.voided() > 0 ? ", " + check.voided() + " voided torn entries" : "");
            for (String t : check.tornTail()) {
                System.out.println("torn tail: " + t + " (repair: cairn log check --truncate-torn-tail)");
            }
            for (String d : check.damaged()) {
                System.out.println("damaged: " + d + " (before the last synced entry: restore the log from a copy)");
            }
            System.out.println(check.clean() ? "the log is whole" : "the log is not whole");
            return check.clean() ? 0 : 1;
        }
    }

    @Command(name = "compact", mixinStandardHelpOptions = true,
            description = {"Give back the disk space erasures left in the log: every closed cycle file (the days before "
                    + "the one being written) that holds erased statements or voided entries is written again without "
                    + "their padding and replaces the old one atomically. Every entry keeps its index. Holds the log's "
                    + "writer lock: stop the ingesting process (serve or ingest) first. 'cairn erase' runs it itself.",
                "Exit code: 0 when compacted (or nothing to do), 1 when it could not run."})
    static final class Compact implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Override
        public Integer call() {
            Path dir = options.settings().get(LOG_DIR);
            if (!Files.isDirectory(dir)) {
                System.err.println("cairn log compact: there is no log at " + dir);
                return 1;
            }
            if (PendingErasure.exists(dir)) {
                System.err.println("cairn log compact: an erasure of this log was interrupted; run 'cairn erase' to "
                        + "finish it (it compacts the log too)");
                return 1;
            }
            Optional<WriterLock> lock = WriterLock.tryAcquire(dir);
            if (lock.isEmpty()) {
                System.err.println("cairn log compact: another process is appending to the log in " + dir
                        + "; stop it first");
                return 1;
            }
            try (WriterLock held = lock.get()) {
                System.out.println(compact(dir));
                return 0;
            }
        }

        /** Compacts the log in {@code dir}, whose writer lock the caller holds; a line that says what it gave back. */
        static String compact(Path dir) {
            ChronicleLog.open(dir).close(); // finishes a rewrite a killed erasure left, which names byte positions
            LogCompaction.Result r = LogCompaction.compactClosedCycles(dir);
            return r.cycles() == 0 ? "log compacted: no closed cycle file holds erased padding"
                    : String.format("log compacted: %d cycle files, %,d entries written again, %,d bytes of entries "
                    + "became %,d", r.cycles(), r.entries(), r.bytesBefore(), r.bytesAfter());
        }
    }
}
