package dev.cairn.ops;

import java.util.EnumSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cairn query}: the read endpoints alone. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Run the read side only: GET/HEAD endpoints answering from --db (it reads --log only to "
                + "tell how far the projector has come).")
final class QueryCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() throws Exception {
        return ProcessRunner.run("query", options, EnumSet.of(Role.QUERY));
    }
}
