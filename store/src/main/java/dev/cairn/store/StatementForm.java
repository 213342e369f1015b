package dev.cairn.store;

/**
 * Which stored form a statement read returns: the exact bytes (format=exact, and the input of format=canonical)
 * or the {@code format=ids} form the projector computed at write time. Each names its column list in the SQL files.
 */
public enum StatementForm {
    EXACT("body_exact"),
    IDS("body_ids");

    private final String sql;

    StatementForm(String sql) {
        this.sql = sql;
    }

    String sqlName() {
        return sql;
    }
}
