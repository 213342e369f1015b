package dev.cairn.ops;

import java.util.EnumSet;
import java.util.concurrent.Callable;
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
        return ProcessRunner.run("serve", options, EnumSet.allOf(Role.class));
    }
}
