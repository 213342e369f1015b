package dev.cairn.ops;

import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Watermark;
import dev.cairn.store.WatermarkTracker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lag health reports is measured from the log's end, whatever the projector last said of itself. */
class HealthTest {
    @TempDir
    Path dir;

    private static StatementsStored stampedAt(long storedMillis) {
        UUID id = UUID.randomUUID();
        byte[] json = ("{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":"
                + "\"http://adlnet.gov/expapi/verbs/completed\"},\"object\":{\"id\":\"http://example.com/a\"}}")
                .getBytes(StandardCharsets.UTF_8);
        return new StatementsStored(List.of(new StoredStatement(id, storedMillis, json)));
    }

    @Test
    void theLagIsHowLongTheOldestEntryNotAppliedHasWaited() {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); LogAppender appender = log.appender()) {
            long now = System.currentTimeMillis();
            long first = appender.append(stampedAt(now - 20_000));
            long second = appender.append(stampedAt(now - 1_000));
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(Watermark.EMPTY, Clock.systemUTC());
            tracker.drained(now); // what a projector that had just found nothing to do would have said
            Health health = new Health(log, tracker, 10_000, () -> true, new SimpleMeterRegistry(), () -> null, Map::of);

            assertEquals(2, health.lagEvents());
            assertTrue(health.lagMillis() >= 20_000, "lag " + health.lagMillis());
            tracker.advanced(new Watermark(first, now - 20_000, 1));
            assertEquals(1, health.lagEvents());
            assertTrue(health.lagMillis() >= 1_000 && health.lagMillis() < 20_000, "lag " + health.lagMillis());
            tracker.advanced(new Watermark(second, now - 1_000, 2));
            assertEquals(0, health.lagEvents());
            assertEquals(0, health.lagMillis());
        }
    }
}
