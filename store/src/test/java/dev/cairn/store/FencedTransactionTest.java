package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each transaction claims the watermark where its writer left it, so only one writer of a database goes on. */
class FencedTransactionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aSecondWriterCannotClaimOnceTheFirstHasMovedTheWatermark(String dialect) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            FencedTransaction first = new FencedTransaction(db, c -> { });
            FencedTransaction second = new FencedTransaction(db, c -> { });
            try {
                assertTrue(first.claim());
                assertTrue(first.commit(5, 1_000, 3));
                assertFalse(second.claim(), "the watermark is no longer where the second writer saw it");
                second.rollback(false);
                assertEquals(new Watermark(5, 1_000, 3), db.watermark());
            } finally {
                first.close();
                second.close();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aWriterGoesOnFromTheWatermarkItCommitted(String dialect) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            FencedTransaction writer = new FencedTransaction(db, c -> { });
            try {
                assertTrue(writer.claim());
                assertTrue(writer.commit(5, 1_000, 3));
                assertTrue(writer.claim());
                assertTrue(writer.commit(6, 2_000, 4));
                assertEquals(new Watermark(6, 2_000, 4), writer.committed());
                assertEquals(writer.committed(), db.watermark());
            } finally {
                writer.close();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aRolledBackTransactionLeavesTheWatermarkWhereItWas(String dialect) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            FencedTransaction writer = new FencedTransaction(db, c -> { });
            try {
                assertTrue(writer.claim());
                assertTrue(writer.rollback(false), "the connection still works");
                assertTrue(writer.claim(), "the next transaction claims the same watermark");
                assertEquals(Watermark.EMPTY, writer.committed());
            } finally {
                writer.close();
            }
        }
    }
}
