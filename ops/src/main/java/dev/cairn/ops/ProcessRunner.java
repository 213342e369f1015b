package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.DB;
import static dev.cairn.ops.SettingTable.HOST;

import dev.cairn.store.ForwardTarget;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a Cairn process until SIGTERM or Ctrl-C: validates the settings once, starts the parts of its roles, prints
 * where it listens (and a first credential when one was created), then on the signal closes everything in reverse
 * order: stop accepting, drain the ring, sync the log, commit the projector, close.
 */
final class ProcessRunner {
    private ProcessRunner() {
    }

    static int run(String command, CommonOptions options, Set<Role> roles) throws Exception {
        Settings settings = options.settings();
        List<ForwardTarget> targets = roles.contains(Role.FORWARD) ? ConfiguredTargets.read(options.config) : List.of();
        Cairn cairn;
        try {
            cairn = Cairn.start(settings, roles, targets, Clock.systemUTC());
        } catch (IllegalStateException e) {
            System.err.println("cairn " + command + ": " + e.getMessage());
            return 1;
        }
        if (cairn.credentialCreated() != null) {
            System.out.println("Created the first credential (shown only this once; keep it):");
            System.out.println("  " + cairn.credentialCreated());
        }
        if (roles.contains(Role.INGEST) || roles.contains(Role.QUERY)) {
            System.out.println("Cairn " + command + " is serving xAPI at http://" + settings.get(HOST) + ":" + cairn.port()
                    + "/xapi  (Ctrl-C stops it)");
        } else {
            System.out.println("Cairn " + command + (roles.contains(Role.PROJECT) ? " is projecting into " + settings.get(DB)
                    : " is forwarding the targets of " + settings.get(DB)) + "; metrics and health at http://"
                    + settings.get(HOST) + ":" + cairn.port() + "/metrics  (Ctrl-C stops it)");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cairn.close();
            stopped.countDown();
        }, "cairn-shutdown"));
        stopped.await();
        return 0;
    }
}
