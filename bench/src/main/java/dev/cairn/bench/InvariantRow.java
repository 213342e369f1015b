package dev.cairn.bench;

/**
 * One line of the invariant table: what was checked, what must hold, what was seen, and whether it held. A row
 * that shows an anomaly on purpose (lost updates without a precondition) holds when it is reported, whatever its
 * count.
 */
record InvariantRow(String dialect, String check, String expected, String observed, boolean holds) {
    static final String HEADER = "| dialect | check | expected | observed | |\n|---|---|---|---|---|";

    String line() {
        return "| " + dialect + " | " + check + " | " + expected + " | " + observed + " | " + (holds ? "✅" : "❌")
                + " |";
    }
}
