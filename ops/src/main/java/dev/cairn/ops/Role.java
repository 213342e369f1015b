package dev.cairn.ops;

/** The parts a Cairn process runs: {@code serve} runs all three; {@code ingest}, {@code project} and {@code query} one each. */
public enum Role {
    /** Write endpoints, the ingest ring and the sequencer: the one writer of the log. */
    INGEST,
    /** The projector: applies the log to the database. */
    PROJECT,
    /** Read endpoints. */
    QUERY
}
