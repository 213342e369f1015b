package dev.cairn.ops;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Where an option's value comes from when the command line does not give it, in this order: its environment
 * variable {@code CAIRN_NAME} (for {@code --name}), then, for a setting, {@code name=} in the configuration file
 * (which names settings, and forwarding targets: {@link ConfiguredTargets}), then the setting's default
 * ({@link Settings#parse}).
 */
final class ConfigDefaults implements IDefaultValueProvider {
    private final Map<String, String> environment;
    private final Properties file;

    ConfigDefaults(Map<String, String> environment, Properties file) {
        this.environment = environment;
        this.file = file;
    }

    /** Reads the configuration file named by {@code --config} on the command line or by CAIRN_CONFIG. */
    static ConfigDefaults from(String[] args, Map<String, String> environment) {
        String path = environment.get("CAIRN_CONFIG");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                path = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                path = args[i].substring("--config=".length());
            }
        }
        Properties file = new Properties();
        if (path != null) {
            try (Reader in = Files.newBufferedReader(Path.of(path))) {
                file.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the configuration file " + path + ": " + e.getMessage(), e);
            }
            List<String> names = SettingTable.ALL.stream().map(Setting::name).toList();
            for (String name : file.stringPropertyNames()) {
                if (!names.contains(name) && !name.startsWith(ConfiguredTargets.PREFIX)) {
                    throw new IllegalArgumentException("configuration file " + path + ": '" + name
                            + "' is not a setting; settings are " + String.join(", ", names)
                            + ", and forwarding targets' lines target.NAME.FIELD");
                }
            }
            ConfiguredTargets.of(file, path); // a bad target stops every command at start, as a bad setting does
        }
        return new ConfigDefaults(environment, file);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String name = option.longestName();
        if (!name.startsWith("--")) {
            return null;
        }
        // A command's own options (import's --credential, say) come from the environment too, never from the file.
        String env = environment.get(Setting.variable(name.substring(2)));
        return env != null ? env : file.getProperty(name.substring(2));
    }
}
