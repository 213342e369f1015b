package dev.cairn.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * A projection database the harness creates and drops: a SQLite file under a directory, or a database of its own on
 * the PostgreSQL server named by {@code CAIRN_BENCH_POSTGRES} (default: the local server, user postgres).
 */
public final class BenchDatabase implements AutoCloseable {
    static final String ENV = "CAIRN_BENCH_POSTGRES";
    private static final String DEFAULT_ADMIN = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

    private final String dialect;
    private final String url;
    private final String pgName;
    private final boolean dropOnClose;

    private BenchDatabase(String dialect, String url, String pgName, boolean dropOnClose) {
        this.dialect = dialect;
        this.url = url;
        this.pgName = pgName;
        this.dropOnClose = dropOnClose;
    }

    /**
     * A new, empty database of {@code dialect} ("sqlite" or "postgresql"), named after {@code name} and this process
     * (so harnesses run side by side on one PostgreSQL server never share one), dropped on close.
     */
    public static BenchDatabase create(String dialect, Path dir, String name) {
        return open(dialect, dir, name + "_" + ProcessHandle.current().pid(), true, true);
    }

    /**
     * A database that outlives this process (a data set reused by later runs): emptied first when {@code fresh}, and
     * left in place on close. {@link #drop} removes it.
     */
    public static BenchDatabase persistent(String dialect, Path dir, String name, boolean fresh) {
        return open(dialect, dir, name, fresh, false);
    }

    private static BenchDatabase open(String dialect, Path dir, String name, boolean fresh, boolean dropOnClose) {
        if (dialect.equals("sqlite")) {
            Path file = dir.resolve(name + ".db");
            if (fresh) {
                for (String suffix : new String[] {"", "-wal", "-shm"}) {
                    file.resolveSibling(file.getFileName() + suffix).toFile().delete();
                }
            }
            return new BenchDatabase(dialect, "jdbc:sqlite:" + file, null, dropOnClose);
        }
        if (!dialect.equals("postgresql")) {
            throw new IllegalArgumentException("dialect '" + dialect + "' is not sqlite or postgresql");
        }
        String pg = "cairn_bench_" + name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (fresh) {
            admin("DROP DATABASE IF EXISTS " + pg + " WITH (FORCE)");
            admin("CREATE DATABASE " + pg);
        }
        return new BenchDatabase(dialect, withDatabase(adminUrl(), pg), pg, dropOnClose);
    }

    /** Removes the database (a PostgreSQL database; the caller deletes SQLite files with their directory). */
    public void drop() {
        if (pgName != null) {
            admin("DROP DATABASE IF EXISTS " + pgName + " WITH (FORCE)");
        }
    }

    public String dialect() {
        return dialect;
    }

    public String url() {
        return url;
    }

    /** The PostgreSQL database name, or null for SQLite. */
    public String postgresName() {
        return pgName;
    }

    private static String adminUrl() {
        String env = System.getenv(ENV);
        return env == null || env.isBlank() ? DEFAULT_ADMIN : env;
    }

    static String withDatabase(String url, String database) {
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int query = url.indexOf('?');
        return url.substring(0, slash + 1) + database + (query < 0 ? "" : url.substring(query));
    }

    private static void admin(String sql) {
        try (Connection c = DriverManager.getConnection(adminUrl()); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run '" + sql + "' on " + adminUrl() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (dropOnClose) {
            drop();
        }
    }
}
