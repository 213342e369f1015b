package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.LOG_DIR;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogCheck;
import dev.cairn.log.WriterLock;
import dev.cairn.log.chronicle.ChronicleLog;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cairn log check [--truncate-torn-tail]}: the event log's integrity. */
@Command(name = "log", mixinStandardHelpOptions = true, description = "Inspect and repair the event log.",
        subcommands = LogCommand.Check.class)
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
}
