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

    /**
     * What a process or exception said, as one table cell: one line, pipes escaped, and at most its last 400
     * characters, where output says why it stopped.
     */
    static String excerpt(String output) {
        String s = String.valueOf(output).strip().replace('\n', ' ').replace("|", "\\|");
        return s.length() <= 400 ? s : "..." + s.substring(s.length() - 400);
    }
}
