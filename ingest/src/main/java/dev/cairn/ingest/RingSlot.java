package dev.cairn.ingest;

import com.lmax.disruptor.EventTranslatorOneArg;

/** A reusable slot of the ingest ring, allocated once when the ring is built. */
final class RingSlot {
    static final EventTranslatorOneArg<RingSlot, WriteCommand> PUBLISH = (slot, sequence, command) -> slot.command = command;

    WriteCommand command;

    void reset() {
        command = null;
    }
}
