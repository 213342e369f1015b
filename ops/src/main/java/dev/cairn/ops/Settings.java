package dev.cairn.ops;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The settings of one Cairn process, typed and checked once at start: {@link #parse} gives each setting of
 * {@link SettingTable} its value from the text given for it, else its default, and refuses the first bad value with
 * a message that names it ({@code port=70000 is out of range (0-65535)}). After that, {@link #get} only looks up.
 */
public final class Settings {
    private final Map<String, String> given;
    private final Map<Setting<?>, Object> values = new HashMap<>();

    private Settings(Map<String, String> given) {
        this.given = given;
    }

    /**
     * @param text the text given for a setting's name (from a flag, the environment or the configuration file), or
     *             null where none was given
     * @throws Invalid naming the setting whose value is refused
     */
    public static Settings parse(Function<String, String> text) {
        Map<String, String> given = new LinkedHashMap<>();
        for (Setting<?> s : SettingTable.ALL) {
            String t = text.apply(s.name());
            if (t != null) {
                given.put(s.name(), t);
            }
        }
        Settings settings = new Settings(given);
        for (Setting<?> s : SettingTable.ALL) {
            settings.get(s);
        }
        try {
            SettingTable.checkTogether(settings);
        } catch (IllegalArgumentException e) {
            throw new Invalid(e.getMessage(), e);
        }
        return settings;
    }

    /** Settings from {@code name=text} pairs, the others at their defaults. */
    public static Settings parse(Map<String, String> text) {
        for (String name : text.keySet()) {
            if (SettingTable.ALL.stream().noneMatch(s -> s.name().equals(name))) {
                throw new Invalid("'" + name + "' is not a setting", null);
            }
        }
        return parse(text::get);
    }

    /** These settings with more values given as text, checked again as a whole. */
    public Settings with(Map<String, String> text) {
        Map<String, String> all = new LinkedHashMap<>(given);
        all.putAll(text);
        return parse(all);
    }

    /** A setting's value: null only for a setting whose absence means something (no admin credential file). */
    public <T> T get(Setting<T> setting) {
        if (!values.containsKey(setting)) {
            return resolve(setting); // while parsing: a default that depends on a setting not resolved yet
        }
        @SuppressWarnings("unchecked")
        T value = (T) values.get(setting);
        return value;
    }

    /** Whether a value was given for the setting (rather than taken from its default). */
    public boolean given(Setting<?> setting) {
        return given.containsKey(setting.name());
    }

    private <T> T resolve(Setting<T> setting) {
        String text = given.get(setting.name());
        T value;
        try {
            value = text != null ? setting.parser().apply(text) : setting.byDefault().apply(this);
        } catch (Invalid e) {
            throw e;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            // The value itself is not repeated: it may be a secret (admin-credential).
            throw new Invalid(m != null && m.startsWith(setting.name()) ? m : setting.name() + ": " + m, e);
        }
        values.put(setting, value);
        return value;
    }

    /** A value a setting cannot have; the message names the setting and the value. */
    public static final class Invalid extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Invalid(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
