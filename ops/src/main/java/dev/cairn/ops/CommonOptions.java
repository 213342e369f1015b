package dev.cairn.ops;

import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every process accepts, so one word changes a command from serve to another: one per setting of
 * {@link SettingTable} (added to the command's model before parsing), each also given by its environment variable
 * or the configuration file ({@link ConfigDefaults} says in which order), plus {@code --config}.
 */
@Command(modelTransformer = CommonOptions.FromTable.class)
final class CommonOptions {
    @Option(names = "--config", paramLabel = "FILE",
            description = "A properties file of settings (name=value, names as the options without '--'); "
                    + "flags and environment variables win over it (env CAIRN_CONFIG).")
    Path config;

    /** The command these options belong to: where the values parsed for them are. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private boolean warned;

    /** The settings these options give, typed and checked once. */
    Settings settings() {
        Settings s = Settings.parse(name -> command.findOption("--" + name).getValue());
        warnOfASecretOnTheCommandLine();
        return s;
    }

    private void warnOfASecretOnTheCommandLine() {
        if (!warned && command.commandLine() != null && command.commandLine().getParseResult() != null
                && command.commandLine().getParseResult().hasMatchedOption(SettingTable.ADMIN_CREDENTIAL.flag())) {
            warned = true;
            System.err.println("cairn: warning: --admin-credential shows the secret to every local user (in the "
                    + "process list); give it with --admin-credential-file or CAIRN_ADMIN_CREDENTIAL instead");
        }
    }

    /** Adds an option of type text for each setting; the setting's own parser types it. */
    static final class FromTable implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (Setting<?> s : SettingTable.ALL) {
                spec.addOption(OptionSpec.builder(s.flag()).paramLabel(s.label()).type(String.class)
                        .description(s.help()).build());
            }
            return spec;
        }
    }
}
