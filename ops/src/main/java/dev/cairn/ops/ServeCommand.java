package dev.cairn.ops;

import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cairn serve}: ingest, projector and query in one JVM on one port. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the whole LRS in one process: the xAPI API on one port, the log and the database under --data.")
final class ServeCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() throws Exception {
        Settings settings;
        try {
            settings = options.settings().validate();
        } catch (IllegalArgumentException e) {
            System.err.println("cairn serve: " + e.getMessage());
            return 2;
        }
        Cairn cairn = Cairn.start(settings, Clock.systemUTC());
        if (cairn.credentialCreated() != null) {
            System.out.println("Created the first credential (shown only this once; keep it):");
            System.out.println("  " + cairn.credentialCreated());
        }
        System.out.println("Cairn is serving xAPI at http://" + settings.host() + ":" + cairn.port() + "/xapi  (Ctrl-C stops it)");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cairn.close();
            stopped.countDown();
        }, "cairn-shutdown"));
        stopped.await();
        return 0;
    }
}
