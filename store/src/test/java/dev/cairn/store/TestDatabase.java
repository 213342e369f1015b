package dev.cairn.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * A fresh, empty database of one dialect for one test. PostgreSQL comes from the server named by the environment
 * variable {@value #ENV} (a JDBC URL to a database the user may create databases from); without it, from a
 * Testcontainers PostgreSQL where a Docker engine exists; otherwise the test is skipped (and CI fails on skips).
 * Each PostgreSQL test database is created here and dropped on close.
 */
public final class TestDatabase implements AutoCloseable {
    public static final String ENV = "CAIRN_TEST_POSTGRES";

    private static PostgreSQLContainer<?> container;

    private final String url;
    private final String adminUrl;
    private final String name;

    private TestDatabase(String url, String adminUrl, String name) {
        this.url = url;
        this.adminUrl = adminUrl;
        this.name = name;
    }

    /** The dialects every store test runs on. */
    public static Stream<String> dialects() {
        return Stream.of("sqlite", "postgresql");
    }

    public static TestDatabase create(String dialect, Path dir) {
        if (dialect.equals("sqlite")) {
            return new TestDatabase("jdbc:sqlite:" + dir.resolve("cairn-" + UUID.randomUUID() + ".db"), null, null);
        }
        String admin = postgresAdminUrl();
        String name = "cairn_test_" + UUID.randomUUID().toString().replace("-", "");
        execute(admin, "CREATE DATABASE " + name);
        return new TestDatabase(withDatabase(admin, name), admin, name);
    }

    public String url() {
        return url;
    }

    private static String postgresAdminUrl() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return env;
        }
        synchronized (TestDatabase.class) {
            if (container == null) {
                Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                        "PostgreSQL tests need " + ENV + " or a Docker engine");
                container = new PostgreSQLContainer<>("postgres:16-alpine");
                container.start();
            }
            return container.getJdbcUrl() + (container.getJdbcUrl().contains("?") ? "&" : "?")
                    + "user=" + container.getUsername() + "&password=" + container.getPassword();
        }
    }

    /** The same server URL pointing at another database. */
    static String withDatabase(String url, String database) {
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int query = url.indexOf('?');
        String tail = query < 0 ? "" : url.substring(query);
        return url.substring(0, slash + 1) + database + tail;
    }

    private static void execute(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run '" + sql + "' on " + url + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (name != null) {
            execute(adminUrl, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }
}
