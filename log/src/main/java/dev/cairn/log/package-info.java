/**
 * The event log: the source of truth of Cairn.
 *
 * <p>Every accepted write request becomes exactly one event, appended by the sequencer and made durable by an
 * explicit {@link dev.cairn.log.LogAppender#sync()} before the request is acknowledged. The database tables and
 * the projector's watermark are derived from the log: the watermark moves only in the transaction that applied
 * the rows, so replaying the log from the start (or from any committed watermark) is always safe to repeat.
 *
 * <p>Its users see only the interfaces here ({@link dev.cairn.log.EventLog}, {@link dev.cairn.log.LogAppender},
 * {@link dev.cairn.log.LogTailer}), the events and their codec ({@link dev.cairn.log.EventCodec}); the process
 * that starts them picks the implementation ({@code dev.cairn.log.chronicle}, one directory of Chronicle Queue),
 * so a partitioned log can implement them later without a change to its users. Positions are opaque: see
 * {@link dev.cairn.log.EventLog}.
 *
 * <p>An entry half-written by a killed writer is never seen by readers; one that is not whole for another reason (a
 * crash or power loss after the last sync) fails its checksum, and the torn-tail rule
 * ({@link dev.cairn.log.EventLog#repairTornTail()}) decides what may be repaired: only what follows the last synced
 * position, which the projector never reads past.
 */
package dev.cairn.log;
