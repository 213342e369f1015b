package dev.cairn.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings a database to the newest schema: applies, in one transaction each, the migrations it has not seen. */
final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);

    private Migrations() {
    }

    static void apply(Connection c, Dialect dialect) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
            int current = 0;
            try (ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_version")) {
                if (rs.next()) {
                    current = rs.getInt(1);
                }
            }
            c.commit();
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
                c.commit();
                LOG.info("database schema migrated to version {}", version);
            }
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
