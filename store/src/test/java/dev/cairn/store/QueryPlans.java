package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The plans the databases choose for a statement, read as text for the tests that check them. */
final class QueryPlans {
    private QueryPlans() {
    }

    /** The plan as text, a line per node (SQLite's detail column). */
    static String explain(Connection c, String sql, long[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setLong(i + 1, params[i]);
            }
            StringBuilder out = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.append(rs.getString(rs.getMetaData().getColumnCount())).append('\n');
                }
            }
            return out.toString();
        }
    }

    /** Rows the plan's scans of one table produced, over all their loops. */
    static long rowsRead(Pattern scan, String plan) {
        long rows = 0;
        Matcher m = scan.matcher(plan);
        while (m.find()) {
            rows += Long.parseLong(m.group(1)) * Long.parseLong(m.group(2));
        }
        return rows;
    }
}
