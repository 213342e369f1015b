package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Statement rows added to the open transaction and not yet sent: a batch of INSERTs on SQLite, one binary COPY on
 * PostgreSQL (which spares the server an INSERT's work per row: projection ~10% faster than multi-row INSERTs).
 */
final class PendingStatements {
    /** PostgreSQL's COPY, or null where rows are inserted. */
    private final BinaryCopy copy;
    private final PreparedStatement insert;

    PendingStatements(Connection c, Database db) throws SQLException {
        if (db.dialect() == Dialect.POSTGRESQL) {
            copy = new BinaryCopy(c, db.sql("copy_statements"));
            insert = null;
        } else {
            copy = null;
            insert = c.prepareStatement(db.sql("insert_statement"));
        }
    }

    void add(long seq, String id, long storedMillis, boolean voided, boolean voiding, byte[] json, byte[] keys)
            throws SQLException {
        if (copy != null) {
            copy.row(7).int8(seq).text(id).int8(storedMillis).int2(voided ? 1 : 0).int2(voiding ? 1 : 0).bytea(json)
                    .bytea(keys);
            return;
        }
        insert.setLong(1, seq);
        insert.setString(2, id);
        insert.setLong(3, storedMillis);
        insert.setInt(4, voided ? 1 : 0);
        insert.setInt(5, voiding ? 1 : 0);
        insert.setBytes(6, json);
        insert.setBytes(7, keys);
        insert.addBatch();
    }

    /** Writes every pending row. */
    void flush() throws SQLException {
        if (copy != null) {
            copy.send();
        } else {
            insert.executeBatch();
        }
    }

    /** Forgets the pending rows (the transaction was rolled back). */
    void clear() throws SQLException {
        if (copy != null) {
            copy.clear();
        } else {
            insert.clearBatch();
        }
    }
}
