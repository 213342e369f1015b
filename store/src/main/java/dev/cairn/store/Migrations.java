package dev.cairn.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a database to the newest schema: applies the migrations it has not seen, all in one transaction that
 * first takes the database's exclusive lock, so processes starting together on a new database migrate it once.
 */
final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    /**
     * A row of schema_version that says the database was created by a release whose every connection zeroes what it
     * deletes (SQLite's secure_delete): its free pages hold no stale copy of a row, which an erasure that deletes
     * rows in place relies on. A database created before has none; an erasure rebuilds it into a new file instead.
     */
    static final int ZEROED_SINCE_CREATION = -1;

    private Migrations() {
    }

    static void apply(Connection c, Dialect dialect) throws SQLException {
        // Read first, without the lock: a process that starts on a database already at the newest version (a query or
        // ingest restarted beside a running projector) must not wait for the write lock, which the projector's
        // back-to-back transactions kept from it for longer than the busy timeout under load (bench/report, split
        // trials: cairn query failed to start with SQLITE_BUSY). Otherwise the version is read again under the lock.
        if (versionWithoutLock(c) >= newest(dialect)) {
            return;
        }
        try (Statement s = c.createStatement()) {
            dialect.beginExclusive(c, s);
            try {
                s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
                int current = version(s);
                for (Map.Entry<String, String> m : dialect.migrations().all().entrySet()) {
                    int version = Integer.parseInt(m.getKey());
                    if (version <= current) {
                        continue;
                    }
                    for (String sql : m.getValue().split(";\\s*\n")) {
                        if (!sql.isBlank()) {
                            s.execute(sql);
                        }
                    }
                    s.execute("INSERT INTO schema_version (version) VALUES (" + version + ")");
                    LOG.info("database schema migrated to version {}", version);
                }
                if (current == 0) {
                    s.execute("INSERT INTO schema_version (version) VALUES (" + ZEROED_SINCE_CREATION + ")");
                }
                dialect.commitExclusive(c, s);
            } catch (SQLException e) {
                dialect.rollbackExclusive(c, s);
                throw e;
            }
        }
    }

    /** The schema's version as a plain read sees it; 0 when there is no schema_version table (a new database). */
    private static int versionWithoutLock(Connection c) {
        try (Statement s = c.createStatement()) {
            return version(s);
        } catch (SQLException e) {
            return 0; // the locked path creates the table, or fails with the reason
        }
    }

    private static int newest(Dialect dialect) {
        return dialect.migrations().all().keySet().stream().mapToInt(Integer::parseInt).max().orElse(0);
    }

    /** The newest version schema_version records; 0 when it records none. */
    private static int version(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_version")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }
}
