package dev.cairn.ops;

import java.util.EnumSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cairn forward}: forwarding alone, a reader of the log per target (split mode). */
@Command(name = "forward", mixinStandardHelpOptions = true,
        description = "Run forwarding only: send the log's statements to the targets stored in --db (cairn targets). One forward process per database.")
final class ForwardCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() throws Exception {
        return ProcessRunner.run("forward", options, EnumSet.of(Role.FORWARD));
    }
}
