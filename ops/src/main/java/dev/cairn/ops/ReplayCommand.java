package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.DB;
import static dev.cairn.ops.SettingTable.LOG_DIR;
import static dev.cairn.ops.SettingTable.PROJECTOR_BATCH;

import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.EventLog;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.projector.Projector;
import dev.cairn.projector.ProjectorRunner;
import dev.cairn.projector.ReplayProgress;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.ReplayTarget;
import dev.cairn.store.StoreException;
import dev.cairn.store.WatermarkTracker;
import java.nio.file.Files;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code cairn replay}: rebuilds every projected table from the log into a new database beside the live one, and
 * only once that has finished puts it in place of the live tables: a replay that stops (a bad log entry, a full
 * disk, Ctrl-C) leaves the live tables as they were.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Rebuild every table from the event log beside the live ones, then put them in their place "
                + "(stop other Cairn processes on this data first).")
final class ReplayCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() {
        Settings s = options.settings();
        if (!Files.isDirectory(s.get(LOG_DIR))) {
            System.err.println("cairn replay: there is no log at " + s.get(LOG_DIR));
            return 1;
        }
        try (EventLog log = ChronicleLog.open(s.get(LOG_DIR)); ReplayTarget target = ReplayTarget.create(s.get(DB).jdbc())) {
            try (Database db = Database.open(target.url())) {
                replay(log, db, s.get(PROJECTOR_BATCH), new TerminalProgress());
            }
            target.swap();
        } catch (BadLogEntryException | StoreException e) {
            System.err.println("\ncairn replay: stopped, and the live tables are unchanged: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** Applies the whole log to the empty database {@code db}. */
    static void replay(EventLog log, Database db, int batch, ReplayProgress progress) {
        WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
        try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, batch)) {
            ProjectorRunner.applyAll(projector, progress);
        }
    }

    /** Prints entries, statements and the rate, at most five times a second, on one terminal line. */
    static final class TerminalProgress implements ReplayProgress {
        private final long start = System.nanoTime();
        private long lastPrint;

        @Override
        public void update(long entries, long statements) {
            long now = System.nanoTime();
            if (now - lastPrint > 200_000_000L) {
                lastPrint = now;
                System.out.print("\rreplaying: " + line(entries, statements, now));
                System.out.flush();
            }
        }

        @Override
        public void done(long entries, long statements) {
            System.out.println("\rreplayed: " + line(entries, statements, System.nanoTime()));
        }

        private String line(long entries, long statements, long now) {
            double seconds = Math.max(1e-9, (now - start) / 1e9);
            return String.format("%,d log entries, %,d statements in %.1f s (%,.0f statements/s)   ",
                    entries, statements, seconds, statements / seconds);
        }
    }
}
