package dev.cairn.ops;

import java.util.EnumSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cairn project}: the projector alone, applying the log to the database. */
@Command(name = "project", mixinStandardHelpOptions = true,
        description = "Run the projector only: tail the log in --log and apply it to --db. One projector per database.")
final class ProjectCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Override
    public Integer call() throws Exception {
        return ProcessRunner.run("project", options, EnumSet.of(Role.PROJECT));
    }
}
