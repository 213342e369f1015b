package dev.cairn.ops;

import java.util.Locale;
import java.util.function.Function;

/**
 * One setting of a Cairn process, declared once in {@link SettingTable}. Its name is the flag without dashes
 * ({@code --max-body}), the configuration file's key ({@code max-body=}) and, upper-cased, the environment variable
 * ({@code CAIRN_MAX_BODY}).
 *
 * @param name         the setting's name
 * @param label        what the value is, in {@code --help} ({@code BYTES}, {@code MS}, {@code URL})
 * @param shownDefault the default as {@code --help} and the README show it
 * @param description  one line for {@code --help}
 * @param parser       types a value given as text, or throws with a message that names the setting and the value
 * @param byDefault    the value when none is given, possibly from other settings (which are resolved first)
 * @param <T>          the type the value has everywhere after start
 */
public record Setting<T>(String name, String label, String shownDefault, String description,
                         Function<String, T> parser, Function<Settings, T> byDefault) {
    /** The environment variable that gives this setting. */
    public String variable() {
        return variable(name);
    }

    /** The environment variable of the option {@code --name}: {@code CAIRN_NAME}, dashes as underscores. */
    static String variable(String name) {
        return "CAIRN_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** The flag that gives this setting. */
    public String flag() {
        return "--" + name;
    }

    /** The description with where else the value may come from, as {@code --help} shows it. */
    public String help() {
        return description + " (env " + variable() + "; default: " + shownDefault + ")";
    }
}
