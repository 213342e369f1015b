package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.WatermarkTracker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
    private EventLog log;
    private Database db;
    private LogAppender appender;
    private WatermarkTracker tracker;
    private ProjectorRunner runner;

    @BeforeEach
    void open() {
        log = ChronicleLog.open(dir.resolve("log"));
        db = Database.open("jdbc:sqlite:" + dir.resolve("cairn.db"));
        appender = log.appender();
        tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
    }

    @AfterEach
    void close() {
        if (runner != null) {
            runner.close();
        }
        appender.close();
        db.close();
        log.close();
    }

    /** A runner beside an ingest, whose sequencer wakes it after each sync ({@link #append()} does). */
    private void startRunner(long lingerNanos) {
        start(ProjectorRunner.besideIngest(new Projector(log, new ProjectionWriter(db), tracker, 100), lingerNanos));
    }

    private void start(ProjectorRunner r) {
        runner = r;
        runner.start();
    }

    private long append() {
        UUID id = UUID.randomUUID();
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},"
                + "\"object\":{\"id\":\"http://example.com/activities/a\"}}";
        long index = appender.append(new StatementsStored(List.of(
                new StoredStatement(id, 1, json.getBytes(StandardCharsets.UTF_8)))));
        appender.sync();
        if (runner != null) {
            runner.wake(); // as the sequencer does after each sync
        }
        return index;
    }

    /** Waits as an ack=visible write does; gives up after 10 s, a third of the long linger. */
    private void awaitApplied(long index) throws Exception {
        tracker.awaitVisible(index).get(10, TimeUnit.SECONDS);
    }

    @Test
    void whileNoWriterWaitsAnotherWriteWaitsForTheLinger() throws Exception {
        startRunner(LONG_LINGER_NANOS);
        long first = append();
        awaitApplied(first); // the first write after a quiet spell is applied at once
        long second = append(); // its wake-up does not end the linger
        Thread.sleep(300);
        assertTrue(tracker.current().logIndex() < second, "the second write gathers with later ones");
        assertEquals(first, tracker.current().logIndex());
    }

    @Test
    void aWriterThatStartsWaitingEndsTheLinger() throws Exception {
        startRunner(LONG_LINGER_NANOS);
        awaitApplied(append());
        long second = append();
        awaitApplied(second);
        assertEquals(second, tracker.current().logIndex());
    }

    @Test
    void withoutLingerEveryWriteIsAppliedAtOnce() throws Exception {
        startRunner(0);
        append();
        long second = append();
        awaitApplied(second);
        assertEquals(second, tracker.current().logIndex());
    }

    @Test
    void besideAnIngestAnIdleRunnerWaitsToBeWokenInsteadOfPolling() throws Exception {
        startRunner(0);
        awaitApplied(append());
        long before = runner.passes();
        Thread.sleep(400);
        long passes = runner.passes() - before;
        // At most one pass per WAKE_WAIT_NANOS (20 ms), and a few more for a slow machine's late wake-ups.
        assertTrue(passes <= 400 / 20 + 5, passes + " passes in 400 ms of an idle log");
    }

    @Test
    void aloneTheRunnerFindsWritesNobodyWakesItFor() throws Exception {
        start(ProjectorRunner.alone(new Projector(log, new ProjectionWriter(db), tracker, 100)));
        long first = append();
        awaitApplied(first);
        appender.append(new StatementsStored(List.of(new StoredStatement(UUID.randomUUID(), 2,
                ("{\"actor\":{\"mbox\":\"mailto:b@example.com\"},\"verb\":{\"id\":\"http://example.com/v\"},"
                        + "\"object\":{\"id\":\"http://example.com/a\"}}").getBytes(StandardCharsets.UTF_8)))));
        appender.sync(); // and no wake-up: the ingest is another process
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (tracker.current().logIndex() == first && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(tracker.current().logIndex() > first);
    }

    /**
     * A task for the projector's thread runs between two transactions, once everything up to the position it names is
     * applied, with the writer's watermark there, and not before: an erasure sees every write acknowledged before it.
     */
    @Test
    void anExclusiveTaskRunsOnceTheWatermarkHasPassedItsPosition() throws Exception {
        startRunner(LONG_LINGER_NANOS);
        long last = -1;
        for (int i = 0; i < 5; i++) {
            last = append();
        }
        long at = last;
        long seen = runner.exclusive(at, writer -> writer.watermark().logIndex()).get(10, TimeUnit.SECONDS);
        assertTrue(seen >= at, "the watermark the task saw, " + seen + ", has passed " + at);
        assertEquals("cairn-projector", runner.exclusive(at, writer -> Thread.currentThread().getName())
                .get(10, TimeUnit.SECONDS));
        long sixth = append();
        assertEquals(6, runner.exclusive(sixth, writer -> writer.watermark().seq()).get(10, TimeUnit.SECONDS),
                "the projector goes on after a task");
    }

    @Test
    void anExclusiveTaskAskedOfAStoppedRunnerFails() {
        startRunner(0);
        runner.close();
        java.util.concurrent.CompletableFuture<Integer> task = runner.exclusive(-1, writer -> 1);
        runner = null;
        assertTrue(task.isCompletedExceptionally());
    }
}
