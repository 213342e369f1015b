package dev.cairn.forward;

/**
 * What forwarders need to know of the erasures a running Cairn does beside them (docs/erasure.md): a batch read from
 * the log before an erasure must not be delivered after it, so a forwarder reads again, from its cursor, the entries
 * the erasure rewrote once it has finished.
 */
public interface ErasureWatch {
    /** How many erasures have changed the tables so far (each one counts from its transaction's commit). */
    long erasures();

    /** Whether an erasure is under way: from before its transaction until its log rewrite has ended. */
    boolean erasing();
}
