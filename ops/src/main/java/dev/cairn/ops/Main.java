package dev.cairn.ops;

import dev.cairn.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cairn} command. Each subcommand wires its parts by hand; start reading at {@link ServeCommand}. */
@Command(name = "cairn", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Cairn, an event-sourced xAPI Learning Record Store.",
        subcommands = {ServeCommand.class, IngestCommand.class, ProjectCommand.class, QueryCommand.class,
            ReplayCommand.class, LogCommand.class, ImportCommand.class, ExportCommand.class, ForwardCommand.class,
            EraseCommand.class,
            TargetsCommand.class, CredentialsCommand.class,
            VersionCommand.class, CommandLine.HelpCommand.class})
public final class Main {
    static {
        // Undertow and XNIO log through jboss-logging: send it to SLF4J like everything else.
        System.setProperty("org.jboss.logging.provider", "slf4j");
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        return run(System.getenv(), args);
    }

    /** Runs a command with the given environment (tests pass their own). */
    static int run(java.util.Map<String, String> environment, String... args) {
        ConfigDefaults defaults;
        try {
            defaults = ConfigDefaults.from(args, environment);
        } catch (RuntimeException e) {
            System.err.println("cairn: " + e.getMessage());
            return 2;
        }
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).setDefaultValueProvider(defaults)
                .setExecutionExceptionHandler(Main::refuse).execute(args);
    }

    /**
     * A setting with a bad value stops any command, before it starts anything, with exit code 2; a database that
     * cannot be opened or used (a data directory that does not exist yet, a PostgreSQL that is down) with exit code
     * 1 and what the database said, not a stack trace.
     */
    private static int refuse(Exception e, CommandLine command, CommandLine.ParseResult parsed) throws Exception {
        if (!(e instanceof Settings.Invalid) && !(e instanceof StoreException)) {
            throw e;
        }
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        return e instanceof Settings.Invalid ? 2 : 1;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"cairn " + (v == null ? "development build" : v)};
        }
    }
}
