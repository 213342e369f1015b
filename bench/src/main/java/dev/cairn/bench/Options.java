package dev.cairn.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} arguments of a harness main, each with a default; an unknown name is an error. */
final class Options {
    private final Map<String, String> values;

    private Options(Map<String, String> values) {
        this.values = values;
    }

    /** @param defaults name, default, name, default, ... */
    static Options parse(String[] args, String... defaults) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < defaults.length; i += 2) {
            values.put(defaults[i], defaults[i + 1]);
        }
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : args[i];
            if (!values.containsKey(name) || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + args[i] + "; options are "
                        + values);
            }
            values.put(name, args[i + 1]);
        }
        return new Options(values);
    }

    String value(String name) {
        return values.get(name);
    }

    long longValue(String name) {
        return Long.parseLong(value(name).replace("_", ""));
    }

    int intValue(String name) {
        return Integer.parseInt(value(name).replace("_", ""));
    }

    double doubleValue(String name) {
        return Double.parseDouble(value(name));
    }

    List<String> list(String name) {
        return Arrays.stream(value(name).split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
