package dev.cairn.ingest;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Disruptor ring between the HTTP workers (many producers) and the {@link Sequencer} (its one consumer).
 * A full ring is back-pressure: {@link #tryPublish} returns false and the request gets 503.
 */
public final class IngestRing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IngestRing.class);

    private final Disruptor<RingSlot> disruptor;
    private final RingBuffer<RingSlot> ring;
    private volatile Thread sequencerThread;

    public IngestRing(Sequencer sequencer, int size) {
        disruptor = new Disruptor<>(RingSlot::new, size, r -> {
            Thread t = new Thread(r, "cairn-sequencer");
            t.setDaemon(true);
            sequencerThread = t;
            return t;
        }, ProducerType.MULTI, new BlockingWaitStrategy());
        disruptor.handleEventsWith(sequencer);
        disruptor.setDefaultExceptionHandler(new ExceptionHandler<>() {
            @Override
            public void handleEventException(Throwable ex, long sequence, RingSlot slot) {
                LOG.error("sequencer failed at ring sequence {}", sequence, ex);
                if (slot.command != null) {
                    slot.command.outcome().completeExceptionally(ex);
                }
            }

            @Override
            public void handleOnStartException(Throwable ex) {
                LOG.error("sequencer failed to start", ex);
            }

            @Override
            public void handleOnShutdownException(Throwable ex) {
                LOG.error("sequencer failed to shut down cleanly", ex);
            }
        });
        ring = disruptor.start();
    }

    /** Commands published and not yet taken by the sequencer. */
    public long occupancy() {
        return ring.getBufferSize() - ring.remainingCapacity();
    }

    /** Hands a command to the sequencer; false when the ring is full. */
    public boolean tryPublish(WriteCommand command) {
        return ring.tryPublishEvent(RingSlot.PUBLISH, command);
    }

    /**
     * Lets the sequencer finish everything published, then waits for its thread to end: the Disruptor stops the
     * processor asynchronously, and the sequencer's final sync must happen before the log is closed.
     */
    @Override
    public void close() {
        try {
            disruptor.shutdown(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            LOG.warn("the sequencer did not drain the ring within 30 s");
            disruptor.halt();
        }
        Thread t = sequencerThread;
        if (t != null) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
