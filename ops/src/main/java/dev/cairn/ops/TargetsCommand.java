package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.DB;
import static dev.cairn.ops.SettingTable.XAPI_VERSION;

import dev.cairn.forward.DeadLetterRetry;
import dev.cairn.forward.Target;
import dev.cairn.store.Database;
import dev.cairn.store.DeadLetter;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn targets}: the forwarding targets in the database, which every running {@code serve} or {@code forward}
 * process picks up within a second.
 */
@Command(name = "targets", mixinStandardHelpOptions = true,
        description = "Add, list, pause, resume and remove forwarding targets (another LRS, or a webhook), and see and "
                + "retry the batches a target refused (dead letters).",
        subcommands = {TargetsCommand.Add.class, TargetsCommand.ListTargets.class, TargetsCommand.Pause.class,
                TargetsCommand.Resume.class, TargetsCommand.Remove.class, TargetsCommand.DeadLetters.class,
                TargetsCommand.Retry.class, TargetsCommand.RetryAll.class})
final class TargetsCommand {
    private TargetsCommand() {
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Add a target; running processes start forwarding to it within a second.")
    static final class Add implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Parameters(index = "0", description = "The target's name (1-64 letters, digits, '.', '_', '-').")
        String name;

        @Option(names = "--kind", required = true, description = "lrs (POST statement batches to another xAPI "
                + "endpoint) or webhook (POST {\"target\":NAME,\"statements\":[...]} to a URL).")
        String kind;

        @Option(names = "--url", required = true, description = "The LRS's xAPI endpoint (e.g. https://lrs.example.com"
                + "/xapi, without /statements), or the webhook's URL.")
        String url;

        @Option(names = "--credential", description = "lrs: KEY:SECRET Cairn authenticates with at the target.")
        String credential;

        @Option(names = "--secret", description = "webhook: the key (16 characters or more) of the HMAC-SHA256 "
                + "signature of X-Cairn-Timestamp, '.' and the body, sent as X-Cairn-Signature: sha256=HEX.")
        String secret;

        @Option(names = "--filter", defaultValue = "", description = "GET /statements' filter parameters as a query "
                + "string (verb, activity, agent, registration, related_activities, related_agents); default every "
                + "statement.")
        String filter;

        @Option(names = "--batch", defaultValue = "500", description = "Most statements per POST (default 500).")
        int batch;

        @Option(names = "--max-delay", defaultValue = "1000",
                description = "Longest a statement waits for its batch to fill, in ms (default 1000).")
        long maxDelay;

        @Option(names = "--lrs-version", paramLabel = "VERSION", description = "The xAPI version an lrs target "
                + "speaks: 1.0.3 or 2.0.0 (default: this server's --xapi-version). A 1.0.3 target is sent 1.0.x "
                + "statements only: xAPI forbids converting a 2.0 statement to a prior version.")
        String lrsVersion;

        @Option(names = "--from", defaultValue = "end",
                description = "end (default): statements stored from now on; start: everything the log holds.")
        String from;

        @Option(names = "--paused", description = "Add it paused (resume it with 'cairn targets resume').")
        boolean paused;

        @Override
        public Integer call() {
            if (!from.equals("end") && !from.equals("start")) {
                System.err.println("cairn targets add: --from must be start or end; got '" + from + "'");
                return 2;
            }
            ForwardTarget t = new ForwardTarget(name, kind, url, credential, secret, filter, batch, maxDelay,
                    lrsVersion, paused, from.equals("start") ? -1L : null);
            Settings settings = options.settings();
            try {
                Target.check(t, settings.get(XAPI_VERSION));
            } catch (XapiException e) {
                System.err.println("cairn targets add: " + e.where() + ": " + e.getMessage());
                return 2;
            }
            try (Database db = Database.open(settings.get(DB).jdbc())) {
                if (!new ForwardStore(db).insert(t)) {
                    System.err.println("cairn targets add: a target named '" + name + "' exists");
                    return 1;
                }
            }
            System.out.println("added " + name);
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List the targets: name, kind, URL, filter, batch, delay, xAPI version, state, cursor "
                    + "(secrets not shown).")
    static final class ListTargets implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Override
        public Integer call() {
            try (Database db = Database.open(options.settings().get(DB).jdbc())) {
                for (ForwardTarget t : new ForwardStore(db).list()) {
                    System.out.println(t.name() + "\t" + t.kind() + "\t" + t.url() + "\t"
                            + (t.filter().isEmpty() ? "(every statement)" : t.filter()) + "\tbatch " + t.batchSize()
                            + "\tdelay " + t.maxDelayMillis() + " ms"
                            + "\txAPI " + (t.xapiVersion() == null ? "default" : t.xapiVersion())
                            + "\t" + (t.paused() ? "paused" : "running")
                            + "\tcursor " + (t.logPosition() == null ? "(log end, once started)"
                            : Long.toHexString(t.logPosition())));
                }
            }
            return 0;
        }
    }

    /** A target's words without control characters: its answer must not drive the operator's terminal. */
    private static String printable(String text) {
        return text.replaceAll("\\p{Cntrl}+", " ");
    }

    /** A subcommand about one named target: opens the database, then does its one thing with the stored targets. */
    private abstract static class OnTarget implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Parameters(index = "0", description = "The target's name.")
        String name;

        @Override
        public Integer call() {
            try (Database db = Database.open(options.settings().get(DB).jdbc())) {
                return run(new ForwardStore(db));
            }
        }

        abstract int run(ForwardStore store);

        /** Says that a change was made, or that there is no such target (exit 1). */
        int done(boolean found, String what) {
            if (!found) {
                System.err.println("cairn targets " + what + ": no target named '" + name + "'");
                return 1;
            }
            System.out.println(what + (what.endsWith("e") ? "d " : "ed ") + name);
            return 0;
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = "Stop forwarding to a target (its cursor stays where it is).")
    static final class Pause extends OnTarget {
        @Override
        int run(ForwardStore store) {
            return done(store.setPaused(name, true), "pause");
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Forward to a paused target again, from where it stopped.")
    static final class Resume extends OnTarget {
        @Override
        int run(ForwardStore store) {
            return done(store.setPaused(name, false), "resume");
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Remove a target, its cursor and its dead letters.")
    static final class Remove extends OnTarget {
        @Override
        int run(ForwardStore store) {
            return done(store.delete(name), "remove");
        }
    }

    @Command(name = "dead-letters", mixinStandardHelpOptions = true,
            description = "List the batches a target refused, oldest first: id, statements, status, when, and its "
                    + "answer.")
    static final class DeadLetters extends OnTarget {
        @Option(names = "--after", defaultValue = "0", description = "Only those with an id above this one.")
        long after;

        @Option(names = "--limit", defaultValue = "100", description = "At most this many (1 to 1000).")
        int limit;

        @Override
        int run(ForwardStore store) {
            if (limit < 1 || limit > 1_000 || after < 0) {
                System.err.println("cairn targets dead-letters: --limit takes 1 to 1000 and --after an id (0 or more)");
                return 2;
            }
            List<DeadLetter> letters = store.deadLetters(name, after, limit + 1);
            for (DeadLetter d : letters.subList(0, Math.min(limit, letters.size()))) {
                System.out.println(d.id() + "\t" + d.statements() + " statements\t" + d.status() + "\t"
                        + Instant.ofEpochMilli(d.atMillis()) + "\t" + printable(d.response()));
            }
            if (letters.size() > limit) {
                System.err.println("more: --after " + letters.get(limit - 1).id());
            }
            return 0;
        }
    }

    @Command(name = "retry-all", mixinStandardHelpOptions = true,
            description = "Send a target's dead letters again, oldest first, stopping at the first the target does not"
                    + " take now; those delivered are dropped.")
    static final class RetryAll extends OnTarget {
        @Option(names = "--limit", defaultValue = "1000", description = "At most this many (1 to 1000).")
        int limit;

        @Override
        int run(ForwardStore store) {
            if (limit < 1 || limit > DeadLetterRetry.MAX_PER_CALL) {
                System.err.println("cairn targets retry-all: --limit takes 1 to " + DeadLetterRetry.MAX_PER_CALL);
                return 2;
            }
            if (store.find(name).isEmpty()) {
                return done(false, "retry-all");
            }
            DeadLetterRetry.Summary r;
            try {
                r = DeadLetterRetry.retryAll(store, options.settings().get(XAPI_VERSION), name, limit);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            }
            (r.stoppedAtNotTaken() ? System.err : System.out).println(printable(r.message()));
            return r.stoppedAtNotTaken() ? 1 : 0;
        }
    }

    @Command(name = "retry", mixinStandardHelpOptions = true,
            description = "Send a dead letter to its target again; delivered, it is dropped.")
    static final class Retry implements Callable<Integer> {
        @Mixin
        CommonOptions options;

        @Parameters(index = "0", description = "The dead letter's id (from 'cairn targets dead-letters').")
        long id;

        @Override
        public Integer call() throws InterruptedException {
            Settings settings = options.settings();
            try (Database db = Database.open(settings.get(DB).jdbc())) {
                DeadLetterRetry.Result r = DeadLetterRetry.retry(new ForwardStore(db), settings.get(XAPI_VERSION), id);
                (r.delivered() ? System.out : System.err).println(printable(r.message()));
                return r.delivered() ? 0 : 1;
            }
        }
    }
}
