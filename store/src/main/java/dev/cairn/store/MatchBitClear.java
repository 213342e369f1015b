package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Takes statements' bits out of a row in one table of match rows, and deletes the row if it is left empty. */
final class MatchBitClear {
    private final PreparedStatement clear;
    private final PreparedStatement deleteEmpty;

    MatchBitClear(Database db, Connection c, String table) throws SQLException {
        clear = c.prepareStatement(db.sql("clear_match_bit").replace("{table}", table));
        deleteEmpty = c.prepareStatement(db.sql("delete_empty_match").replace("{table}", table));
    }

    /** Clears {@code bits} in the row ({@code entry}, {@code block}), and deletes the row if it has no bit left. */
    void clear(long entry, long block, long bits) throws SQLException {
        clear.setLong(1, bits);
        clear.setLong(2, entry);
        clear.setLong(3, block);
        clear.executeUpdate();
        deleteEmpty.setLong(1, entry);
        deleteEmpty.setLong(2, block);
        deleteEmpty.executeUpdate();
    }
}
