package dev.cairn.ops;

import dev.cairn.log.EventLog;
import dev.cairn.projector.Projector;
import dev.cairn.projector.ProjectorRunner;
import dev.cairn.projector.ReplayProgress;
import dev.cairn.store.Database;
import dev.cairn.store.WatermarkTracker;
import java.nio.file.Files;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cairn replay}: drops every projected table and rebuilds it from the log. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Rebuild every table from the event log (stop other Cairn processes on this data first).")
final class ReplayCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() {
        Settings s;
        try {
            s = options.settings().validate();
        } catch (IllegalArgumentException e) {
            System.err.println("cairn replay: " + e.getMessage());
            return 2;
        }
        if (!Files.isDirectory(s.log())) {
            System.err.println("cairn replay: there is no log at " + s.log());
            return 1;
        }
        try (EventLog log = EventLog.open(s.log()); Database db = Database.open(s.db())) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, db, tracker, s.projectorBatch())) {
                ProjectorRunner.rebuild(projector, db, new TerminalProgress());
            }
        }
        return 0;
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
