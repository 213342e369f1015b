package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.DB;
import static dev.cairn.ops.SettingTable.LOG_DIR;
import static dev.cairn.ops.SettingTable.PROJECTOR_BATCH;
import static dev.cairn.ops.SettingTable.XAPI_VERSION;

import dev.cairn.erase.ErasurePlan;
import dev.cairn.erase.Erasures;
import dev.cairn.erase.OnlineErasure;
import dev.cairn.erase.PendingErasure;
import dev.cairn.erase.TableErasure;
import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.EventLog;
import dev.cairn.log.WriterLock;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.ReplayTarget;
import dev.cairn.store.StoreException;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.XapiException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn erase}: takes a person's data (by IFI), chosen statements (by id) or every statement stored before a
 * time out of the log and the tables, with every other Cairn process on the data stopped (docs/erasure.md). The log's
 * entries that held them are rewritten in place ({@link EventLog#rewrite}), then the tables are rebuilt from it, as
 * {@code cairn replay} does, so that they hold exactly what a replay of the new log gives. A mark in the log's
 * directory ({@link PendingErasure}) covers the whole change: killed at any moment, the erasure is finished by the next
 * {@code cairn erase}, and no other command starts on the data meanwhile.
 */
@Command(name = "erase", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Erase a person's data, chosen statements, or every statement stored before a time: from the "
                + "log's files and from the tables (stop every other Cairn process on this data first).",
            "Exit code: 0 when erased (or, with --dry-run, planned), 1 when nothing matched or the erasure failed, 2 for"
                    + " bad options."})
final class EraseCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(EraseCommand.class);
    @Mixin
    CommonOptions options;

    @Option(names = "--agent", paramLabel = "JSON", description = "A person, as an xAPI Agent with one IFI (mbox, "
            + "mbox_sha1sum, openid or account), such as '{\"mbox\":\"mailto:ada@example.com\"}'. Repeatable: a batch "
            + "of people is erased in one pass.")
    List<String> agents = new ArrayList<>();

    @Option(names = "--statement-id", paramLabel = "UUID", description = "A statement to remove. Repeatable.")
    List<String> statementIds = new ArrayList<>();

    @Option(names = "--stored-before", paramLabel = "TIMESTAMP", description = "Remove every statement stored before "
            + "this time (ISO 8601 with a time zone, not in the future): a retention period.")
    String storedBefore;

    @Option(names = "--dry-run", description = "Only report what would be erased: statements removed and rewritten, "
            + "document entries, log entries and bytes.")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
        Settings s = options.settings();
        ErasurePlan.Request request;
        try {
            request = request(s);
        } catch (XapiException e) {
            System.err.println("cairn erase: " + e.where() + ": " + e.getMessage());
            return 2;
        }
        Path logDir = s.get(LOG_DIR);
        boolean pending = PendingErasure.exists(logDir);
        if (request.isEmpty() && !pending) {
            System.err.println("cairn erase: say what to erase: --agent, --statement-id or --stored-before");
            return 2;
        }
        String erasureId = ErasurePlan.newErasureId();
        long upTo = Long.MAX_VALUE;
        Optional<PendingErasure.Interrupted> interrupted;
        try {
            interrupted = PendingErasure.read(logDir);
        } catch (IllegalStateException e) {
            System.err.println("cairn erase: " + e.getMessage());
            return 1;
        }
        if (interrupted.isPresent()) {
            ErasurePlan.Request was = interrupted.get().request();
            if (!was.isEmpty() && !request.isEmpty() && !request.equals(was)) {
                System.err.println("cairn erase: an interrupted erasure of other data is finished first: run 'cairn "
                        + "erase' without options (it remembers what it erases), then this one");
                return 2;
            }
            request = was.isEmpty() ? request : was;
            erasureId = interrupted.get().erasureId();
            upTo = interrupted.get().upTo();
        }
        if (!Files.isDirectory(logDir)) {
            System.err.println("cairn erase: there is no log at " + logDir);
            return 1;
        }
        Optional<WriterLock> lock = WriterLock.tryAcquire(logDir);
        if (lock.isEmpty()) {
            System.err.println("cairn erase: another process writes the log in " + logDir + "; erase a person "
                    + "through that running Cairn (POST /admin/erasures, README), or stop every Cairn process on this "
                    + "data, then erase");
            return 1;
        }
        try (WriterLock held = lock.get()) {
            int exit;
            try (EventLog log = ChronicleLog.open(logDir)) {
                exit = erase(s, log, request, erasureId, upTo, pending, dryRun);
            }
            if (!dryRun) {
                compact(logDir); // after a kill, a run again that finds nothing to erase still gives the space back
            }
            return exit;
        } catch (BadLogEntryException | StoreException e) {
            System.err.println("cairn erase: stopped: " + e.getMessage() + (PendingErasure.exists(logDir)
                    ? "\nRun 'cairn erase' again to finish the erasure." : "\nNothing was erased."));
            return 1;
        }
    }

    /**
     * Finishes the erasure that the mark in the log's directory says was interrupted, as {@code cairn erase} without
     * options does, but leaves the log's compaction to {@code cairn log compact}: {@code cairn serve} runs this on
     * start, holding the log's writer lock, before it opens anything else on the data.
     *
     * @throws IllegalStateException when the mark does not read
     */
    static void finishInterrupted(Settings s) throws Exception {
        Path logDir = s.get(LOG_DIR);
        PendingErasure.Interrupted was = PendingErasure.read(logDir).orElse(
                new PendingErasure.Interrupted(ErasurePlan.newErasureId(), new ErasurePlan.Request(List.of(), Set.of(),
                        null), Long.MAX_VALUE)); // an empty mark of an earlier release: the tables are rebuilt
        LOG.warn("an erasure of this data was interrupted ({}): finishing it before anything is served", was.erasureId());
        try (EventLog log = ChronicleLog.open(logDir)) {
            erase(s, log, was.request(), was.erasureId(), was.upTo(), true, false);
        }
    }

    private static int erase(Settings s, EventLog log, ErasurePlan.Request request, String erasureId, long upTo,
                             boolean pending, boolean dryRun) throws Exception {
        long started = System.nanoTime();
        log.repairTornTail(); // as an ingest does on start: the erasure is this log's writer now
        ErasurePlan plan;
        String outOfOrder = null;
        String tables;
        boolean rebuild;
        List<EventLog.Rewrite> prepared = null;
        ErasureStore.Erasure record;
        ErasurePlan.Counts c;
        long planned;
        Path logDir = s.get(LOG_DIR);
        // One database for the plan and the row changes: the names of statements chosen by id or time are judged from
        // its tables as they were before the change, some while it is applied.
        try (Database live = Database.open(s.get(DB).jdbc())) {
            ErasureStore store = new ErasureStore(live);
            if (!pending) {
                erasureId = Erasures.freshId(store);
            }
            if (dryRun) {
                plan = ErasurePlan.counting(log, request, erasureId, upTo);
            } else {
                // Statements chosen by id or time keep the names of the agents a kept statement names, which the
                // tables say; in tables out of stored order (never written by Cairn) every name of theirs goes.
                Predicate<String> namedByKept = null;
                if (request.choosesAny()) {
                    Optional<Predicate<String>> named = ErasurePlan.namedByKept(store, request);
                    outOfOrder = named.isEmpty() ? OnlineErasure.OUT_OF_ORDER : null;
                    namedByKept = named.orElse(agent -> false);
                }
                plan = ErasurePlan.of(log, request, erasureId, upTo, namedByKept);
            }
            planned = System.nanoTime();
            c = plan.counts();
            System.out.printf("%s: %d statements removed, %d rewritten, %d document entries voided; %d log entries (%d "
                            + "bytes) rewritten in place%n", dryRun ? "would erase" : "erasing", c.statementsRemoved(),
                    c.statementsRewritten(), c.documentEntries(), c.entries(), c.bytes());
            if (dryRun) {
                return 0;
            }
            if (c.isEmpty() && !pending) {
                System.err.println("cairn erase: nothing in the log matches; nothing was erased");
                return 1;
            }
            if (pending) {
                System.out.println("finishing an erasure that was interrupted");
            }
            PendingErasure.mark(logDir, erasureId, request, upTo);
            record = new ErasureStore.Erasure(0, System.currentTimeMillis(), Erasures.subject(request),
                    c.statementsRemoved(), c.statementsRewritten(), c.documentEntries(), c.entries(), c.bytes(),
                    (System.nanoTime() - started) / 1_000_000);
            // The names of statements chosen by id or time were judged from the tables before they changed: planned
            // again after, an agent may be judged otherwise, so only a rebuild matches the entries rewritten before.
            if (pending && store.recorded(erasureId) && !request.choosesAny()) {
                tables = "table rows changed before the interruption";
                rebuild = false;
            } else {
                // A mark without the erasure recorded may be a run's that had begun rewriting the log, whose
                // rewritten entries no plan finds again: only a rebuild from the log matches that.
                TableErasure rows = new TableErasure(log, plan, store);
                Optional<String> why = pending ? Optional.of("an interrupted erasure is finished")
                        : outOfOrder != null ? Optional.of(outOfOrder) : rows.whyRebuild();
                if (why.isEmpty()) {
                    try (ProjectionWriter writer = new ProjectionWriter(live)) {
                        TableErasure.Result result = rows.apply(writer, record, Erasures.REWRITE_BATCH_BYTES);
                        if (result.outcome() == TableErasure.Outcome.REBUILD) {
                            why = Optional.of("an entry could not keep a removed statement's definitions");
                        }
                        prepared = result.rewrites();
                    }
                }
                rebuild = why.isPresent();
                tables = rebuild ? "tables to be rebuilt (" + why.get() + ")" : "table rows changed";
            }
        }
        long changed = System.nanoTime();
        Erasures.rewrite(log, plan, prepared);
        long rewritten = System.nanoTime();
        if (rebuild) {
            try (ReplayTarget target = ReplayTarget.create(s.get(DB).jdbc())) {
                try (Database db = Database.open(target.url())) {
                    ReplayCommand.replay(log, db, s.get(PROJECTOR_BATCH), new ReplayCommand.TerminalProgress());
                }
                target.swap();
            }
        }
        long rebuilt = System.nanoTime();
        int letters;
        long millis = (rebuilt - started) / 1_000_000;
        try (Database live = Database.open(s.get(DB).jdbc())) {
            ErasureStore store = new ErasureStore(live);
            letters = Erasures.cleanUp(live, plan, upTo);
            if (rebuild && !store.recorded(erasureId)) { // recorded before a kill, the rebuild carried it over
                store.record(record, erasureId);
            }
            store.took(erasureId, millis);
        }
        PendingErasure.clear(logDir);
        LOG.info("erasure {} done: {}; {} statements removed, {} rewritten, {} document entries, {} log entries, {} dead "
                + "letters, in {} ms; {}", erasureId, Erasures.subject(request), c.statementsRemoved(), c.statementsRewritten(),
                c.documentEntries(), c.entries(), letters, millis, tables);
        System.out.printf("erased in %.1f s: log read and planned in %.1f s, %s in %.1f s, log rewritten in %.1f s%s;"
                        + " %d dead letters dropped%n", millis / 1000.0, (planned - started) / 1e9, tables,
                (changed - planned) / 1e9, (rewritten - changed) / 1e9,
                rebuild ? String.format(", tables rebuilt from it in %.1f s", (rebuilt - rewritten) / 1e9) : "", letters);
        return 0;
    }

    /** Gives the erased bytes' space back; a failure leaves the erasure whole and says what to run. */
    private static void compact(Path logDir) {
        try {
            System.out.println(LogCommand.Compact.compact(logDir));
        } catch (RuntimeException | InternalError e) { // a full disk faults the copy's memory map: an InternalError
            LOG.warn("the log was not compacted", e);
            System.err.println("cairn erase: the log was not compacted (" + e.getMessage() + "); the erasure itself is "
                    + "whole. Free some space and run 'cairn log compact' to give the erased bytes' space back");
        }
    }

    private ErasurePlan.Request request(Settings s) {
        List<Ifi> people = new ArrayList<>();
        for (String a : agents) {
            people.add(Erasures.person(a.getBytes(StandardCharsets.UTF_8), s.get(XAPI_VERSION), "option --agent"));
        }
        Set<UUID> ids = new LinkedHashSet<>();
        for (String id : statementIds) {
            ids.add(Erasures.statementId(id, "option --statement-id"));
        }
        Long before = storedBefore == null ? null
                : Erasures.storedBefore(storedBefore, s.get(XAPI_VERSION), "option --stored-before");
        return new ErasurePlan.Request(people, ids, before);
    }


}
