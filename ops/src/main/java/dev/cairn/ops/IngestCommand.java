package dev.cairn.ops;

import java.util.EnumSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cairn ingest}: the write endpoints and the one sequencer of the log. */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Run the write side only: PUT/POST/DELETE endpoints appending to the log. Pair it with "
                + "'cairn project' and 'cairn query' on the same --log and --db.")
final class IngestCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() throws Exception {
        return ProcessRunner.run("ingest", options, EnumSet.of(Role.INGEST));
    }
}
