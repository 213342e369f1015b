package dev.cairn.erase;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogTailer;
import dev.cairn.store.Database;
import dev.cairn.store.ErasureRequests;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.ForwardStore;
import dev.cairn.xapi.Actor;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.Uuids;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The steps every erasure shares, whether {@code cairn erase} runs it with the processes stopped or a running Cairn
 * does ({@link OnlineErasure}): reading what is asked, a new id, the log's rewrite, and the clean-up that leaves no
 * copy of the erased bytes in the database's files.
 */
public final class Erasures {
    /** The most bytes of log entries one rewrite holds: its statements, decoded, and its plan file. */
    public static final long REWRITE_BATCH_BYTES = 16L << 20;
    /** The tables whose deleted rows an erasure makes sure no file keeps (PostgreSQL VACUUMs them). */
    private static final List<String> TOUCHED_TABLES = List.of("statement", "statement_match", "statement_ref",
            "filter_key", "document", "activity", "agent_name", "attachment", "statement_attachment",
            "forward_dead_letter", "erasure_request");

    private Erasures() {
    }

    /** The person an Agent's JSON names ({@code where}: the option or JSON path it came from, for the refusal). */
    public static Ifi person(byte[] agentJson, XapiVersion version, String where) {
        Actor actor = StatementParser.parseActor(agentJson, version, where);
        if (actor.ifi() == null) {
            throw new XapiException(where, "agent.no_ifi", "a Group without an IFI names no one: give the person's own "
                    + "Agent");
        }
        return actor.ifi();
    }

    public static UUID statementId(String id, String where) {
        return Uuids.parse(id, where);
    }

    /** A retention period's time, in epoch milliseconds: a timestamp with a time zone, not in the future. */
    public static long storedBefore(String timestamp, XapiVersion version, String where) {
        if (!Timestamps.isValid(timestamp, version)) {
            throw new XapiException(where, "timestamp.invalid", where + " must be " + Timestamps.rule(version)
                    + "; got '" + timestamp + "'");
        }
        long before = Timestamps.instant(timestamp).toEpochMilli();
        if (before > System.currentTimeMillis()) {
            throw new XapiException(where, "timestamp.future", where + " is in the future (" + timestamp + "): that "
                    + "would erase statements not stored yet");
        }
        return before;
    }

    /** A new erasure id that no recorded erasure has (32 random bits: a new one must not take an old one's id). */
    public static String freshId(ErasureStore store) {
        String id = ErasurePlan.newErasureId();
        while (store.recorded(id)) {
            id = ErasurePlan.newErasureId();
        }
        return id;
    }

    /**
     * Adds {@code request} to the erasures waiting to run in the process that projects ({@link ErasureRequestRunner}),
     * under a new erasure id, which it returns; it covers every write acknowledged before {@code afterPosition}, the
     * log's last synced position.
     */
    public static String ask(ErasureStore store, ErasureRequests requests, long afterPosition,
                             ErasurePlan.Request request) {
        List<String> agentKeys = request.people().stream().map(Ifi::key).toList();
        while (true) {
            String erasureId = freshId(store);
            if (requests.ask(erasureId, afterPosition, PendingErasure.encode(erasureId, request), agentKeys)) {
                return erasureId;
            }
        }
    }

    /**
     * Rewrites the plan's entries: the writes {@code prepared} in the tables' pass, or with null (too many to keep)
     * worked out again a batch of at most {@link #REWRITE_BATCH_BYTES} at a time, so that no more of the log is held
     * in memory (or in the rewrite's plan file) at once. Each batch is crash-safe on its own; the pending mark covers
     * the whole, since a run again plans afresh from what is left.
     */
    public static void rewrite(EventLog log, ErasurePlan plan, List<EventLog.Rewrite> prepared) {
        if (prepared != null) {
            prepared.forEach(log::rewrite);
            return;
        }
        try (LogTailer tailer = log.tailer(EventLog.START)) {
            for (List<ErasurePlan.Entry> batch : plan.batches(REWRITE_BATCH_BYTES)) {
                log.rewrite(plan.replacements(tailer, batch));
            }
        }
    }

    /**
     * Drops the forwarding dead letters that hold erased data, and the requests waiting to erase no one but people this
     * erasure erased in the log up to position {@code upTo}, asked before it (a running Cairn's, which name them),
     * then makes the database give back the space its deleted rows took ({@link ErasureStore#vacuum}); returns the
     * number of dead letters dropped.
     */
    public static int cleanUp(Database live, ErasurePlan plan, long upTo) {
        int letters = new ForwardStore(live).dropDeadLettersHolding(needles(plan), plan.request().storedBeforeMillis());
        ErasureRequests requests = new ErasureRequests(live);
        for (ErasureRequests.Pending p : requests.pending()) {
            // Covered only if everything it was asked to erase was in the log this erasure read (up to upTo).
            if (!p.erasureId().equals(plan.erasureId()) && p.afterPosition() <= upTo && coveredBy(p, plan.request())) {
                requests.finish(p.erasureId(), ErasureRequests.Status.NOTHING, "erasure " + plan.erasureId()
                        + " erased them first");
            }
        }
        new ErasureStore(live).vacuum(TOUCHED_TABLES);
        return letters;
    }

    /** Whether waiting request {@code p} erases only people {@code done} erased (nothing is left for it to do). */
    private static boolean coveredBy(ErasureRequests.Pending p, ErasurePlan.Request done) {
        try {
            ErasurePlan.Request asked = PendingErasure.decode(p.request()).request();
            return asked.statementIds().isEmpty() && asked.storedBeforeMillis() == null && !asked.people().isEmpty()
                    && done.people().containsAll(asked.people());
        } catch (java.io.IOException | RuntimeException e) {
            return false; // the runner reports it as failed
        }
    }

    /**
     * What marks a dead letter as holding erased data: the removed statements' ids and the people's identifiers (a
     * retention period's dead letters go by the time they were parked).
     */
    private static List<byte[]> needles(ErasurePlan plan) {
        List<byte[]> out = new ArrayList<>();
        for (UUID id : plan.removedIds()) {
            out.add(id.toString().getBytes(StandardCharsets.US_ASCII));
        }
        for (Ifi ifi : plan.request().people()) {
            out.add((ifi.kind() == Ifi.Kind.ACCOUNT ? ifi.accountName() : ifi.value()).getBytes(StandardCharsets.UTF_8));
        }
        for (UUID id : plan.request().statementIds()) {
            out.add(id.toString().getBytes(StandardCharsets.US_ASCII));
        }
        return out;
    }

    /** What was asked, without personal data: each person as the SHA-256 of their IFI key. */
    public static String subject(ErasurePlan.Request r) {
        List<String> parts = new ArrayList<>();
        for (Ifi ifi : r.people()) {
            parts.add("agent sha256:" + sha256(ifi.key()));
        }
        if (!r.statementIds().isEmpty()) {
            parts.add("statements " + r.statementIds().size());
        }
        if (r.storedBeforeMillis() != null) {
            parts.add("stored before " + Timestamps.format(r.storedBeforeMillis()));
        }
        return parts.isEmpty() ? "an interrupted erasure, finished" : String.join(", ", parts);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
