/**
 * The event log: the source of truth of Cairn.
 *
 * <p>Every accepted write request becomes exactly one event, appended by the sequencer and made durable by an
 * explicit {@link dev.cairn.log.LogAppender#sync()} before the request is acknowledged. The database tables and
 * the projector's watermark are derived from the log: the watermark moves only in the transaction that applied
 * the rows, so replaying the log from the start (or from any committed watermark) is always safe to repeat.
 *
 * <p>Chronicle Queue provides the storage. An entry half-written by a killed writer is never seen by readers; one
 * that is not whole for another reason (a crash or power loss after the last sync) fails its checksum, and the
 * torn-tail rule ({@link dev.cairn.log.TornTail}) decides what may be repaired: only what follows the last synced
 * position, which the projector never reads past.
 * Indexes are {@code (cycle << 32 | sequence)}: never compute the next index as {@code index + 1}.
 * The API here is kept narrow (append, sync, tail from an index) so that a partitioned log can implement it later.
 */
package dev.cairn.log;
