package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The audit of erasures: what each one erased and how long it took, without the erased personal data. */
public final class ErasureStore {
    /**
     * One erasure.
     *
     * @param subject what was asked, personal data left out: {@code agent sha256:HEX} per person (of the IFI key),
     *                {@code statements N} for ids, {@code stored before T}
     */
    public record Erasure(long id, long atMillis, String subject, long statementsRemoved, long statementsRewritten,
                          long documentEntries, long logEntries, long logBytes, long millis) {
    }

    private final Database db;

    public ErasureStore(Database db) {
        this.db = db;
    }

    /** Records {@code e} (its id is the database's). */
    public void record(Erasure e) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("insert_erasure"))) {
            ps.setLong(1, e.atMillis());
            ps.setString(2, e.subject());
            ps.setLong(3, e.statementsRemoved());
            ps.setLong(4, e.statementsRewritten());
            ps.setLong(5, e.documentEntries());
            ps.setLong(6, e.logEntries());
            ps.setLong(7, e.logBytes());
            ps.setLong(8, e.millis());
            ps.executeUpdate();
        } catch (SQLException ex) {
            throw new StoreException("cannot record the erasure: " + ex.getMessage(), ex);
        }
    }

    /** Every erasure recorded, oldest first. */
    public List<Erasure> list() {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("list_erasures"));
             ResultSet rs = ps.executeQuery()) {
            List<Erasure> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new Erasure(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)));
            }
            return out;
        } catch (SQLException ex) {
            throw new StoreException("cannot list the erasures: " + ex.getMessage(), ex);
        }
    }

    /**
     * Gives back to the database what deleted rows of {@code tables} took, so that no page keeps their bytes: on
     * PostgreSQL a VACUUM of each (outside a transaction); on SQLite nothing, since an erasure's rebuilt database is a
     * new file.
     */
    public void vacuum(List<String> tables) {
        if (db.dialect() != Dialect.POSTGRESQL) {
            return;
        }
        try (Connection c = db.newWriter()) {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                for (String t : tables) {
                    s.execute("VACUUM " + t);
                }
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot vacuum " + tables + ": " + ex.getMessage(), ex);
        }
    }
}
