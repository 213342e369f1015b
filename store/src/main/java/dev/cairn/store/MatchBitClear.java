package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Takes a statement's bit out of its entries' rows in one table of match rows, and deletes a row left empty. */
final class MatchBitClear {
    private final PreparedStatement clear;
    private final PreparedStatement deleteEmpty;

    MatchBitClear(Database db, Connection c, String table) throws SQLException {
        clear = c.prepareStatement(db.sql("clear_match_bit").replace("{table}", table));
        deleteEmpty = c.prepareStatement(db.sql("delete_empty_match").replace("{table}", table));
    }

    /** Clears the bit of {@code seq} in the row of {@code entry}, and deletes the row if it has no bit left. */
    void clear(long entry, long seq) throws SQLException {
        clear.setLong(1, MatchKeys.bit(seq));
        clear.setLong(2, entry);
        clear.setLong(3, MatchKeys.block(seq));
        clear.executeUpdate();
        deleteEmpty.setLong(1, entry);
        deleteEmpty.setLong(2, MatchKeys.block(seq));
        deleteEmpty.executeUpdate();
    }
}
