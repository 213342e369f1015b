package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionChecksum;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.SmallFilesystem;
import dev.cairn.store.WatermarkTracker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite database whose disk fills up under the projector (SQLITE_FULL): the failure is transient, the
 * projector goes on by itself once space is freed, and the tables are those of a run that never failed. (The
 * PostgreSQL server's disk is not one a test can fill here; its disk-full error is a StoreException the runner
 * retries the same way.)
 */
class DatabaseDiskFullTest {
    @TempDir
    Path dir;
    SmallFilesystem fs;

    @BeforeEach
    void mount() {
        fs = SmallFilesystem.mount(dir.resolve("fs"), 48);
    }

    @AfterEach
    void unmount() {
        fs.close();
    }

    @Test
    void aProjectorOutOfDiskSpaceResumesOnceSpaceIsFreedWithTheTablesOfAnUninterruptedRun() throws Exception {
        String padding = "y".repeat(1500);
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); LogAppender appender = log.appender()) {
            for (int e = 0; e < 200; e++) {
                List<StoredStatement> batch = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    UUID id = UUID.randomUUID();
                    String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:u" + i % 11 + "@example.com\"},"
                            + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},\"object\":{\"id\":"
                            + "\"http://example.com/a/" + (e * 50 + i) % 97 + "\"},\"result\":{\"response\":\"" + padding + "\"}}";
                    batch.add(new StoredStatement(id, 1 + e, json.getBytes(StandardCharsets.UTF_8)));
                }
                appender.append(new StatementsStored(batch));
            }
            appender.sync();
            Path ballast = fs.dir().resolve("ballast");
            Files.write(ballast, new byte[30 << 20]);
            String url = "jdbc:sqlite:" + fs.dir().resolve("cairn.db");
            int failures = 0;
            try (Database db = Database.open(url);
                 Projector projector = new Projector(log, new ProjectionWriter(db),
                         new WatermarkTracker(db.watermark(), Clock.systemUTC()), 2000)) {
                while (true) {
                    try {
                        if (projector.doWork() == 0) {
                            break;
                        }
                    } catch (RuntimeException e) {
                        failures++;
                        if (failures == 3) {
                            Files.delete(ballast);
                        }
                        assertTrue(failures < 10, "the projector did not resume: " + e);
                    }
                }
                assertTrue(failures >= 3, "the disk never filled");
                assertEquals(10_000, db.watermark().seq());
                try (Database uninterrupted = Database.open("jdbc:sqlite:" + dir.resolve("fresh.db"));
                     Projector again = new Projector(log, new ProjectionWriter(uninterrupted),
                             new WatermarkTracker(uninterrupted.watermark(), Clock.systemUTC()), 2000)) {
                    while (again.doWork() > 0) {
                        Thread.onSpinWait();
                    }
                    assertEquals(ProjectionChecksum.of(uninterrupted), ProjectionChecksum.of(db));
                }
            }
        }
    }
}
