package dev.cairn.importer;

import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Moves statements from sources to a sink in three overlapping stages: this thread reads batches; a pool parses and
 * validates them in parallel; this thread then submits them, in source order, keeping a few in flight so that the
 * sequencer always has the next batch while it syncs the last. A batch is counted when its outcome comes back
 * (durable); a batch refused for one statement is submitted again without it.
 */
final class ImportPipeline implements AutoCloseable {
    /** Batches submitted and not yet decided: enough to keep the sequencer busy while this thread waits on one. */
    private static final int IN_FLIGHT = 3;

    private final ImportSink sink;
    private final XapiVersion version;
    private final int batchSize;
    private final int parseAhead;
    private final ImportProgress progress;
    private final BooleanSupplier stopping;
    private final ExecutorService parsers;
    private final Deque<Future<ImportParsed>> parsing = new ArrayDeque<>();
    private final Deque<Submitted> submitted = new ArrayDeque<>();

    private record Submitted(ImportParsed batch, ImportSink.Pending pending) {
    }

    /**
     * @param threads  parser threads
     * @param stopping true once the import should stop after the batches already read
     */
    ImportPipeline(ImportSink sink, XapiVersion version, int batchSize, int threads, ImportProgress progress,
                   BooleanSupplier stopping) {
        this.sink = sink;
        this.version = version;
        this.batchSize = batchSize;
        this.parseAhead = 2 * threads;
        this.progress = progress;
        this.stopping = stopping;
        AtomicInteger n = new AtomicInteger();
        this.parsers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cairn-import-parser-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Imports every statement of {@code source}; returns when all are decided and durable.
     *
     * @return false when stopped before the end of the source
     */
    boolean run(ImportSource source) throws IOException, ImportFileException, InterruptedException {
        while (!stopping.getAsBoolean()) {
            ImportBatch batch;
            try {
                batch = source.next(batchSize);
            } catch (IOException | ImportFileException | ImportFailedException e) {
                drain(); // what was read before a source fails part-way (a remote page) is still imported
                throw e;
            }
            if (batch == null) {
                drain();
                return true;
            }
            progress.read(batch.statements().size());
            parsing.addLast(parsers.submit(() -> ImportParsed.parse(batch, version)));
            if (parsing.size() >= parseAhead) {
                submitOldest();
            }
            progress.tick();
        }
        drain();
        return false;
    }

    /** Submits every parsed batch and waits for every outcome. */
    private void drain() throws InterruptedException {
        while (!parsing.isEmpty()) {
            submitOldest();
        }
        while (!submitted.isEmpty()) {
            settle(submitted.pollFirst());
        }
    }

    private void submitOldest() throws InterruptedException {
        ImportParsed batch;
        try {
            batch = parsing.pollFirst().get();
        } catch (ExecutionException e) {
            throw new ImportFailedException("parsing a batch failed: " + e.getCause(), e.getCause());
        }
        progress.rejected(batch.rejected());
        progress.stored(0, batch.repeated());
        if (!batch.statements().isEmpty()) {
            submitted.addLast(new Submitted(batch, sink.submit(batch.statements())));
        }
        while (submitted.size() > IN_FLIGHT) {
            settle(submitted.pollFirst());
        }
        progress.tick();
    }

    /** Waits for a batch's outcome; on a refusal of one statement, rejects it and submits the rest again. */
    private void settle(Submitted s) throws InterruptedException {
        ImportParsed batch = s.batch();
        ImportSink.Outcome o = s.pending().await();
        while (true) {
            int index;
            if (o instanceof ImportSink.Outcome.Stored stored) {
                progress.stored(stored.added(), stored.present());
                return;
            } else if (o instanceof ImportSink.Outcome.Conflict c) {
                index = batch.indexOf(c.id());
                if (index < 0) {
                    throw new ImportFailedException("the sequencer refused statement " + c.id() + ", which is not in the "
                            + "batch it was sent in: " + c.message());
                }
                progress.rejected(batch.rejection(index, "$.id", c.message()));
            } else {
                ImportSink.Outcome.Invalid invalid = (ImportSink.Outcome.Invalid) o;
                index = invalid.index();
                if (index < 0 || index >= batch.statements().size()) {
                    throw new ImportFailedException("the target refused statement [" + index + "] of a batch of "
                            + batch.statements().size() + ": " + invalid.message());
                }
                progress.rejected(batch.rejection(index, invalid.where(), invalid.message()));
            }
            batch = batch.without(index);
            if (batch.statements().isEmpty()) {
                return;
            }
            o = sink.submit(batch.statements()).await();
        }
    }

    @Override
    public void close() {
        parsers.shutdownNow();
    }
}
