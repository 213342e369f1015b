package dev.cairn.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.List;

/**
 * The projection database: created and migrated on open. Readers borrow connections from a pool; the projector
 * owns one dedicated writer connection.
 */
public final class Database implements AutoCloseable {
    /** The most markers one {@link #sqlIn} list takes: well within both drivers' limits on parameters. */
    public static final int MAX_IN_LIST = 500;
    private static final long CONNECTION_TIMEOUT_MILLIS = 3_000;
    private static final long VALIDATION_TIMEOUT_MILLIS = 1_000;
    private static final long KEEPALIVE_MILLIS = 30_000;
    /** Reading connections when the caller names no number: what tools and tests need. */
    public static final int DEFAULT_READERS = 8;
    /**
     * Every table the projector writes, which a replay rebuilds from the log and a checksum compares; the others
     * (credential, schema_version) are not derived from the log.
     */
    public static final List<String> PROJECTED_TABLES = List.of("statement", "filter_key", "statement_match",
            "statement_ref", "document", "activity", "agent_name", "attachment", "statement_attachment", "erased_statement",
            "watermark");

    private final String url;
    private final Dialect dialect;
    private final HikariDataSource readers;

    private Database(String url, Dialect dialect, HikariDataSource readers) {
        this.url = url;
        this.dialect = dialect;
        this.readers = readers;
    }

    /** Opens the database at {@code jdbcUrl}, creating and migrating the schema as needed. */
    public static Database open(String jdbcUrl) {
        return open(jdbcUrl, null);
    }

    /** As {@link #open(String)}, with the reader pool's metrics (connections, waits) recorded in {@code metrics}. */
    public static Database open(String jdbcUrl, MeterRegistry metrics) {
        return open(jdbcUrl, metrics, DEFAULT_READERS);
    }

    /**
     * As {@link #open(String, MeterRegistry)}, with at most {@code readers} connections for reading (queries, the
     * sequencer's checks, credentials); the projector writes on a connection of its own.
     */
    public static Database open(String jdbcUrl, MeterRegistry metrics, int readers) {
        Dialect dialect = Dialect.of(jdbcUrl);
        createSqliteFile(jdbcUrl);
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            dialect.configure(c, true);
            Migrations.apply(c, dialect);
        } catch (SQLException e) {
            throw new StoreException("cannot open database " + jdbcUrl + ": " + e.getMessage(), e);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("cairn-readers");
        config.setMaximumPoolSize(readers);
        config.setMinimumIdle(1);
        // While the database is down a borrower fails after this wait instead of Hikari's 30 s: the sequencer's
        // checks borrow on the ring's one thread. A connection idle for more than half a second is validated before
        // it is lent, one the server ended is evicted on its first error, and idle ones are pinged, so the pool
        // replaces lost connections by itself.
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setValidationTimeout(VALIDATION_TIMEOUT_MILLIS);
        config.setKeepaliveTime(KEEPALIVE_MILLIS);
        dialect.configureReaders(config);
        if (metrics != null) {
            config.setMetricRegistry(metrics);
        }
        HikariDataSource pool = new HikariDataSource(config);
        return new Database(jdbcUrl, dialect, pool);
    }

    /**
     * Creates a new SQLite database file 0600 before SQLite does (SQLite would make it readable by everyone; its
     * -wal and -shm files take the database file's permissions).
     */
    private static void createSqliteFile(String jdbcUrl) {
        String path = jdbcUrl.startsWith("jdbc:sqlite:") ? jdbcUrl.substring("jdbc:sqlite:".length()) : "";
        int query = path.indexOf('?');
        path = query < 0 ? path : path.substring(0, query);
        if (path.isEmpty() || path.startsWith(":") || path.startsWith("file:")) {
            return; // in memory, or a URI SQLite resolves itself
        }
        Path file = Path.of(path);
        if (file.toAbsolutePath().getParent() != null && Files.isDirectory(file.toAbsolutePath().getParent())) {
            try {
                OwnerOnly.createFile(file);
            } catch (IOException e) {
                throw new StoreException("cannot create database " + jdbcUrl + ": " + e.getMessage(), e);
            }
        }
    }

    public Dialect dialect() {
        return dialect;
    }

    public String url() {
        return url;
    }

    /** A pooled connection for reading; close it to return it. */
    public Connection reader() throws SQLException {
        return readers.getConnection();
    }

    /** A new connection for the single writer (the projector), configured for writing. */
    public Connection newWriter() throws SQLException {
        Connection c = DriverManager.getConnection(url, dialect.writerProperties());
        dialect.configure(c, true);
        dialect.configureProjector(c);
        return c;
    }

    public String sql(String name) {
        return dialect.sql(name);
    }

    /**
     * The named SQL with its one {@code (?)} list expanded to {@code n} markers (1 to {@link #MAX_IN_LIST}; longer
     * lists are read in parts).
     */
    public String sqlIn(String name, int n) {
        return sql(name).replace("(?)", "(?" + ", ?".repeat(n - 1) + ")");
    }

    /** The watermark as committed now. */
    public Watermark watermark() {
        try (Connection c = reader(); PreparedStatement ps = c.prepareStatement(sql("watermark"))) {
            return readWatermark(ps);
        } catch (SQLException e) {
            throw new StoreException("cannot read the watermark: " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code failure} means the store cannot answer now, so the request may be sent again: a failed read or
     * lookup ({@link StoreException}), or a lost connection.
     */
    public static boolean unavailable(Throwable failure) {
        return failure instanceof StoreException || connectionLost(failure);
    }

    /**
     * Whether {@code failure} (or its cause) is the loss of the database connection: one that cannot be opened (or
     * borrowed from the pool in time), was closed, or that the server ended (shutting down or restarting), rather
     * than a statement the server refused.
     */
    public static boolean connectionLost(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException e) {
                String state = e.getSQLState();
                if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
                    return true;
                }
            }
        }
        return false;
    }

    static Watermark readWatermark(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the watermark row is missing");
            }
            return new Watermark(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
    }

    @Override
    public void close() {
        readers.close();
    }
}
