package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.FilterKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Filter key ids as the writer assigns and remembers them across commits and rollbacks. */
class FilterKeyIdsTest {
    private static final FilterKey A = FilterKey.verb("http://example.com/verbs/a");
    private static final FilterKey B = FilterKey.verb("http://example.com/verbs/b");
    private static final FilterKey C = FilterKey.verb("http://example.com/verbs/c");

    @TempDir
    Path dir;

    private interface Transactions {
        void run(FilterKeyIds ids, Connection c) throws SQLException;
    }

    private void onWriter(String dialect, int cacheSize, Transactions transactions) throws SQLException {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url());
             Connection c = db.newWriter()) {
            c.setAutoCommit(false);
            FilterKeyIds ids = new FilterKeyIds(db, cacheSize);
            ids.prepare(c);
            transactions.run(ids, c);
        }
    }

    private static void commit(FilterKeyIds ids, Connection c) throws SQLException {
        ids.flush();
        c.commit();
    }

    private static void rollback(FilterKeyIds ids, Connection c) throws SQLException {
        ids.clearPending();
        c.rollback();
        ids.forget();
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void storedKeysKeepTheirIdsAfterARollback(String dialect) throws SQLException {
        onWriter(dialect, 100, (ids, c) -> {
            ids.open();
            assertEquals(1, ids.id(A));
            assertEquals(2, ids.id(B));
            commit(ids, c);
            ids.open();
            assertEquals(3, ids.id(C));
            rollback(ids, c);
            ids.open();
            assertEquals(2, ids.id(B));
            assertEquals(1, ids.id(A));
        });
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aKeyOfARolledBackTransactionIsNumberedAgain(String dialect) throws SQLException {
        onWriter(dialect, 100, (ids, c) -> {
            ids.open();
            assertEquals(1, ids.id(A));
            commit(ids, c);
            ids.open();
            assertEquals(2, ids.id(B));
            rollback(ids, c);
            ids.open();
            assertEquals(2, ids.id(C), "the id B had is free again");
            assertEquals(3, ids.id(B));
        });
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void aKeyTheCacheHasLetGoIsFoundInTheDatabase(String dialect) throws SQLException {
        onWriter(dialect, 1, (ids, c) -> {
            ids.open();
            assertEquals(1, ids.id(A));
            assertEquals(2, ids.id(B)); // A leaves the cache, still pending
            assertEquals(1, ids.id(A));
            commit(ids, c);
        });
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void authorityIdsIncludeTheNewAuthoritiesOfTheTransaction(String dialect) throws SQLException {
        FilterKey stored = new FilterKey(FilterKey.Kind.AUTHORITY, "mbox:mailto:stored@example.com");
        FilterKey added = new FilterKey(FilterKey.Kind.AUTHORITY, "mbox:mailto:added@example.com");
        onWriter(dialect, 100, (ids, c) -> {
            ids.open();
            long storedId = ids.id(stored);
            ids.id(A);
            commit(ids, c);
            ids.open();
            assertEquals(Set.of(storedId), ids.authorityIds());
            long addedId = ids.id(added);
            assertEquals(Set.of(storedId, addedId), ids.authorityIds());
        });
    }
}
