package dev.cairn.ops;

import dev.cairn.forward.Target;
import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Forwarding targets given in the configuration file, as lines {@code target.NAME.FIELD=value} with the fields of
 * {@code cairn targets add}: {@code kind}, {@code url}, {@code credential}, {@code secret}, {@code filter},
 * {@code batch}, {@code max-delay} and {@code from}. Every process checks them when it reads the file, so a bad one
 * stops it at start naming the target and the field; a forwarding process stores them (adding those the database
 * lacks, updating the definition of those it has, keeping their cursors and pause).
 */
final class ConfiguredTargets {
    static final String PREFIX = "target.";
    static final List<String> FIELDS = List.of("kind", "url", "credential", "secret", "filter", "batch", "max-delay",
            "lrs-version", "from");

    private ConfiguredTargets() {
    }

    /** The targets of the configuration file at {@code path}, or none without one. */
    static List<ForwardTarget> read(Path path) {
        if (path == null) {
            return List.of();
        }
        Properties file = new Properties();
        try (Reader in = Files.newBufferedReader(path)) {
            file.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the configuration file " + path + ": " + e.getMessage(), e);
        }
        return of(file, path.toString());
    }

    /**
     * The targets of a configuration file's lines.
     *
     * @throws IllegalArgumentException naming the file, the target and the field, for a line or a target that is wrong
     */
    static List<ForwardTarget> of(Properties file, String path) {
        Map<String, Map<String, String>> byName = new TreeMap<>();
        for (String key : file.stringPropertyNames()) {
            if (!key.startsWith(PREFIX)) {
                continue;
            }
            int dot = key.lastIndexOf('.');
            String name = dot > PREFIX.length() ? key.substring(PREFIX.length(), dot) : "";
            String field = key.substring(dot + 1);
            if (name.isEmpty() || !FIELDS.contains(field)) {
                throw new IllegalArgumentException("configuration file " + path + ": '" + key + "' is not a target's "
                        + "line; they are target.NAME.FIELD with a FIELD of " + String.join(", ", FIELDS));
            }
            byName.computeIfAbsent(name, n -> new TreeMap<>()).put(field, file.getProperty(key).strip());
        }
        List<ForwardTarget> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : byName.entrySet()) {
            String name = e.getKey();
            Map<String, String> f = e.getValue();
            String from = f.getOrDefault("from", "end");
            if (!from.equals("start") && !from.equals("end")) {
                throw invalid(path, name, "from", "from must be start or end; got '" + from + "'");
            }
            ForwardTarget t = new ForwardTarget(name, f.get("kind"), f.get("url"), f.get("credential"),
                    f.get("secret"), f.getOrDefault("filter", ""), (int) number(path, name, "batch",
                    f.getOrDefault("batch", "500")), number(path, name, "max-delay", f.getOrDefault("max-delay", "1000")),
                    f.get("lrs-version"), false, from.equals("start") ? -1L : null);
            try {
                Target.check(t, XapiVersion.V2_0_0);
            } catch (XapiException x) {
                throw new IllegalArgumentException("configuration file " + path + ": " + x.where() + ": "
                        + x.getMessage());
            }
            out.add(t);
        }
        return out;
    }

    private static long number(String path, String name, String field, String text) {
        try {
            long n = Long.parseLong(text);
            return field.equals("batch") ? Math.max(-1, Math.min(n, Target.MAX_BATCH + 1L)) : n;
        } catch (NumberFormatException e) {
            throw invalid(path, name, field, field + " must be a whole number; got '" + text + "'");
        }
    }

    private static IllegalArgumentException invalid(String path, String name, String field, String message) {
        return new IllegalArgumentException("configuration file " + path + ": target " + name + " field " + field
                + ": " + message);
    }
}
