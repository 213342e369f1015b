package dev.cairn.store;

import com.zaxxer.hikari.HikariConfig;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What differs between the databases Cairn runs on. Each dialect keeps its SQL in its own resource folder. */
public enum Dialect {
    SQLITE("sqlite") {
        @Override
        WriterBackend writerBackend(Database db, Connection c) throws SQLException {
            return new SqliteWriterBackend(db, c);
        }

        @Override
        ReplayTarget replayTarget(String liveUrl) throws IOException {
            return SqliteReplayTarget.beside(liveUrl);
        }

        /** sqlite-jdbc reads these driver properties on every new connection. */
        @Override
        void configureReaders(HikariConfig config) {
            config.addDataSourceProperty("busy_timeout", "10000");
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("secure_delete", "true"); // as configure says
        }

        /**
         * sqlite-jdbc by default runs {@code SELECT last_insert_rowid()} after every INSERT to serve
         * getGeneratedKeys(), which Cairn never calls: turning it off made projection 2 to 3 times faster.
         */
        @Override
        java.util.Properties writerProperties() {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("jdbc.get_generated_keys", "false");
            return p;
        }

        // BEGIN IMMEDIATE takes the write lock before the schema version is read; others wait (busy_timeout).
        @Override
        void beginExclusive(Connection c, Statement s) throws SQLException {
            c.setAutoCommit(true);
            s.execute("BEGIN IMMEDIATE");
        }

        @Override
        void commitExclusive(Connection c, Statement s) throws SQLException {
            s.execute("COMMIT");
        }

        @Override
        void rollbackExclusive(Connection c, Statement s) throws SQLException {
            s.execute("ROLLBACK");
        }

        @Override
        void configure(Connection c, boolean writer) throws SQLException {
            try (Statement s = c.createStatement()) {
                // 8 KB pages, for a database created now (an existing one keeps its own): a statement row (~1.5 KB
                // for a typical statement) leaves a 4 KB page with room for one more, 5 share an 8 KB one, and each
                // commit writes fewer, fuller pages. Measured: projection 1.6x faster than with 4 KB pages when rows
                // were ~2.5 KB (bench/RESULTS.md).
                s.execute("PRAGMA page_size=8192");
                // WAL: one writer (the projector) and many readers at once. synchronous=NORMAL skips the fsync
                // per commit: the log already makes every event durable and a replay rebuilds what a crash loses.
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("PRAGMA foreign_keys=OFF");
                // Deleted content is overwritten with zeros, freed pages too: an erasure deletes rows and must leave
                // their bytes in no file, and rows moved about by ordinary writes must leave no stale copies behind
                // for it to miss (docs/erasure.md, "The files after an erasure").
                s.execute("PRAGMA secure_delete=ON");
                if (writer) {
                    s.execute("PRAGMA cache_size=-65536");
                }
            }
        }

        @Override
        void configureProjector(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                // A statement that may fail part-way inside a transaction keeps a statement journal of the pages it
                // changes, which SQLite spills to a temporary file past 64 KiB: the merges of statement_match_recent
                // did, ~0.25 writes per statement under 64 visible writers. In memory it holds one statement's pages
                // at most (a merge's: ~10 MB) and writes nothing. Not for the migrations' connection, whose
                // statements over a whole large database may sort and journal gigabytes.
                s.execute("PRAGMA temp_store=MEMORY");
            }
        }

        @Override
        boolean keepsRecentMatches() {
            return true;
        }
    },
    POSTGRESQL("postgresql") {
        @Override
        WriterBackend writerBackend(Database db, Connection c) throws SQLException {
            return new PostgresWriterBackend(db, c);
        }

        @Override
        ReplayTarget replayTarget(String liveUrl) throws SQLException {
            return PostgresReplayTarget.beside(liveUrl);
        }

        @Override
        void configureReaders(HikariConfig config) {
            config.addDataSourceProperty("connectTimeout", String.valueOf(config.getConnectionTimeout() / 1000));
            config.addDataSourceProperty("tcpKeepAlive", "true");
        }

        /** Batches of inserts become multi-row INSERTs: the bulk path of projection and replay. */
        @Override
        java.util.Properties writerProperties() {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("reWriteBatchedInserts", "true");
            return p;
        }

        /** Any constant both sides agree on: the advisory lock that serializes Cairn's schema migrations. */
        private static final long MIGRATION_LOCK = 0x436169726e4dL;

        @Override
        void beginExclusive(Connection c, Statement s) throws SQLException {
            c.setAutoCommit(false);
            s.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
        }

        @Override
        void commitExclusive(Connection c, Statement s) throws SQLException {
            c.commit();
            c.setAutoCommit(true);
        }

        @Override
        void rollbackExclusive(Connection c, Statement s) throws SQLException {
            c.rollback();
            c.setAutoCommit(true);
        }

        @Override
        void configure(Connection c, boolean writer) throws SQLException {
            if (writer) {
                try (Statement s = c.createStatement()) {
                    // The log already makes every event durable and a replay rebuilds what a crash loses, so the
                    // projector's commits need not wait for the WAL flush.
                    s.execute("SET synchronous_commit = off");
                }
                // Statement rows over 2 KB (large extensions, definitions or attachments metadata) pass the TOAST
                // threshold and are compressed: pglz took a fifth of the server's time in projection when most rows
                // did; lz4 costs a fraction of it. Servers before 14, or built without lz4, keep pglz.
                try (Statement s = c.createStatement()) {
                    s.execute("SET default_toast_compression = lz4");
                } catch (SQLException e) {
                    LOG.info("PostgreSQL keeps pglz for large values ({}); lz4 needs version 14 built with it",
                            e.getMessage());
                }
            }
        }
    };

    private static final Logger LOG = LoggerFactory.getLogger(Dialect.class);

    private final SqlFile statements;
    private final SqlFile migrations;

    Dialect(String folder) {
        this.statements = SqlFile.load("/dev/cairn/store/statements.sql")
                .with(SqlFile.load("/dev/cairn/store/" + folder + "/statements.sql"));
        this.migrations = SqlFile.load("/dev/cairn/store/" + folder + "/migrations.sql");
    }

    /** The dialect of a JDBC URL, or an error that says which URLs are understood. */
    public static Dialect of(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        throw new IllegalArgumentException("database URL '" + jdbcUrl
                + "' is not supported; use jdbc:sqlite:PATH or jdbc:postgresql://HOST:PORT/DATABASE?user=USER");
    }

    /** The bulk writes and housekeeping of the projection writer on its connection {@code c}. */
    abstract WriterBackend writerBackend(Database db, Connection c) throws SQLException;

    /** An empty place beside the live database at {@code liveUrl} to rebuild its projection in. */
    abstract ReplayTarget replayTarget(String liveUrl) throws SQLException, IOException;

    /** Driver settings of the reader pool's connections. */
    abstract void configureReaders(HikariConfig config);

    /** Opens a transaction that holds the database's migration lock until committed or rolled back. */
    abstract void beginExclusive(Connection c, Statement s) throws SQLException;

    abstract void commitExclusive(Connection c, Statement s) throws SQLException;

    abstract void rollbackExclusive(Connection c, Statement s) throws SQLException;

    /**
     * Whether the match rows of small commits wait in statement_match_recent before they are merged into
     * statement_match ({@link SqliteWriterBackend}), so that every read of the match index takes both tables.
     */
    boolean keepsRecentMatches() {
        return false;
    }

    /** Driver properties of the projector's connection. */
    java.util.Properties writerProperties() {
        return new java.util.Properties();
    }

    /** Session settings applied to every new connection. */
    abstract void configure(Connection c, boolean writer) throws SQLException;

    /**
     * Session settings of the connections {@link Database#newWriter} makes (the projector's, the checkpointer's), after
     * {@link #configure}; not of the connection that runs the migrations.
     */
    void configureProjector(Connection c) throws SQLException {
    }

    public String sql(String name) {
        return statements.get(name);
    }

    SqlFile migrations() {
        return migrations;
    }
}
