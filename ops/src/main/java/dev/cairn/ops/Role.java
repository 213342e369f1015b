package dev.cairn.ops;

/**
 * The parts a Cairn process runs: {@code serve} runs them all; {@code ingest}, {@code project}, {@code query} and
 * {@code forward} one each.
 */
public enum Role {
    /** Write endpoints, the ingest ring and the sequencer: the one writer of the log. */
    INGEST,
    /** The projector: applies the log to the database. */
    PROJECT,
    /** Read endpoints. */
    QUERY,
    /** Forwarding: a reader of the log per target (dev.cairn.forward). */
    FORWARD
}
