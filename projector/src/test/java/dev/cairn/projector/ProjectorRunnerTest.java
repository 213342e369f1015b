package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.store.Database;
import dev.cairn.store.WatermarkTracker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Beside an ingest, the runner lets small writes gather while nobody waits to see them, and applies at once what
 * a writer waits for.
 */
class ProjectorRunnerTest {
    private static final long LONG_LINGER_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path dir;

    private static long append(LogAppender appender) {
        UUID id = UUID.randomUUID();
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},"
                + "\"object\":{\"id\":\"http://example.com/activities/a\"}}";
        long index = appender.append(new StatementsStored(List.of(
                new StoredStatement(id, 1, json.getBytes(StandardCharsets.UTF_8)))));
        appender.sync();
        return index;
    }

    private static void awaitApplied(WatermarkTracker tracker, long index) throws Exception {
        tracker.awaitVisible(index).get(10, TimeUnit.SECONDS);
    }

    @Test
    void whileNoWriterWaitsAnotherWriteWaitsForTheLinger() throws Exception {
        try (EventLog log = EventLog.open(dir.resolve("log")); Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
             LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (ProjectorRunner runner = new ProjectorRunner(new Projector(log, db, tracker, 100), LONG_LINGER_NANOS)) {
                tracker.onWaiter(runner::endLinger);
                runner.start();
                long first = append(appender);
                awaitApplied(tracker, first); // the first write after a quiet spell is applied at once
                long second = append(appender);
                runner.wake(); // what the sequencer does after each sync: it does not end the linger
                Thread.sleep(300);
                assertTrue(tracker.current().logIndex() < second, "the second write gathers with later ones");
                assertEquals(first, tracker.current().logIndex());
            }
        }
    }

    @Test
    void aWriterThatStartsWaitingEndsTheLinger() throws Exception {
        try (EventLog log = EventLog.open(dir.resolve("log")); Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
             LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (ProjectorRunner runner = new ProjectorRunner(new Projector(log, db, tracker, 100), LONG_LINGER_NANOS)) {
                tracker.onWaiter(runner::endLinger);
                runner.start();
                awaitApplied(tracker, append(appender));
                long second = append(appender);
                awaitApplied(tracker, second); // as ack=visible does; it gives up after 10 s, a third of the linger
                assertEquals(second, tracker.current().logIndex());
            }
        }
    }

    @Test
    void withoutLingerEveryWriteIsAppliedAtOnce() throws Exception {
        try (EventLog log = EventLog.open(dir.resolve("log")); Database db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
             LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (ProjectorRunner runner = new ProjectorRunner(new Projector(log, db, tracker, 100))) {
                runner.start();
                append(appender);
                long second = append(appender);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (tracker.current().logIndex() < second && System.nanoTime() < deadline) {
                    Thread.sleep(5); // no writer waits: the runner's own polling applies it
                }
                assertEquals(second, tracker.current().logIndex());
            }
        }
    }
}
