package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.KeyFilter;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.store.TestDatabase;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.Ifi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filter Conditions for StatementRefs (Comm 2.1.3): a statement whose object is a StatementRef matches every
 * non-time filter its target matches, recursively. Every arrival order of the same statements gives the same answers.
 */
class StatementRefMatchTest {
    private static final String VOIDED = "http://adlnet.gov/expapi/verbs/voided";
    private static final Pattern ID = Pattern.compile("^\\{\"id\":\"([0-9a-f-]{36})\"");

    @TempDir
    Path dir;

    private record S(String name, String verb, String mbox, String activity, String refTo) {
    }

    /** A named scenario: statements by name; filters and the names each must return. */
    private record Scenario(String title, List<S> statements, Map<String, List<String>> expected) {
    }

    private static final Map<String, UUID> IDS = new LinkedHashMap<>();

    private static UUID id(String name) {
        return IDS.computeIfAbsent(name, n -> UUID.nameUUIDFromBytes(n.getBytes(StandardCharsets.UTF_8)));
    }

    static Stream<Arguments> scenarios() {
        List<Scenario> all = List.of(
                new Scenario("a ref matches its target's verb, agent and activity",
                        List.of(new S("ben", "v:passed", "ben", "a:explosives", null),
                                new S("andrew", "v:confirmed", "andrew", null, "ben")),
                        Map.of("verb v:passed", List.of("andrew", "ben"),
                                "agent ben", List.of("andrew", "ben"),
                                "activity a:explosives", List.of("andrew", "ben"),
                                "verb v:confirmed", List.of("andrew"))),
                new Scenario("a chain matches recursively",
                        List.of(new S("c", "v:c", "c", "a:c", null),
                                new S("b", "v:b", "b", null, "c"),
                                new S("a", "v:a", "a", null, "b")),
                        Map.of("verb v:c", List.of("a", "b", "c"), "verb v:b", List.of("a", "b"),
                                "agent c", List.of("a", "b", "c"), "verb v:a", List.of("a"))),
                new Scenario("a cycle ends",
                        List.of(new S("x", "v:x", "x", null, "y"), new S("y", "v:y", "y", null, "x")),
                        Map.of("verb v:x", List.of("x", "y"), "verb v:y", List.of("x", "y"))),
                new Scenario("a voided target leaves the index but its referrers stay (XAPI-00162)",
                        List.of(new S("t", "v:t", "t", "a:t", null),
                                new S("void", VOIDED, "admin", null, "t"),
                                new S("ref", "v:t", "r", null, "t")),
                        Map.of("verb v:t", List.of("ref", "void"), "activity a:t", List.of("ref", "void"),
                                "verb " + VOIDED, List.of("void"))));
        List<Arguments> out = new ArrayList<>();
        for (String dialect : TestDatabase.dialects().toList()) {
            for (Scenario s : all) {
                for (List<S> order : permutations(s.statements())) {
                    // One transaction per statement, and all of them in one transaction.
                    for (int batch : new int[] {1, 100}) {
                        out.add(Arguments.of(dialect, s.title() + " " + order.stream().map(S::name).toList()
                                + " batch " + batch, order, s.expected(), batch));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("scenarios")
    void everyArrivalOrderGivesTheSameMatches(String dialect, String title, List<S> order, Map<String, List<String>> expected,
                                              int batch) {
        try (TestDatabase database = TestDatabase.create(dialect, dir); EventLog log = ChronicleLog.open(dir.resolve("log"));
             Database db = Database.open(database.url()); LogAppender appender = log.appender()) {
            long stored = 1;
            for (S s : order) {
                appender.append(new StatementsStored(List.of(statement(s, stored++))));
            }
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, batch)) {
                while (projector.doWork() > 0) {
                    Thread.onSpinWait();
                }
            }
            StatementReader reader = new StatementReader(db);
            for (Map.Entry<String, List<String>> e : expected.entrySet()) {
                assertEquals(new TreeSet<>(e.getValue()), names(reader, e.getKey()), e.getKey());
            }
        }
    }

    private static TreeSet<String> names(StatementReader reader, String filter) {
        String[] f = filter.split(" ", 2);
        FilterKey key = switch (f[0]) {
            case "verb" -> FilterKey.verb(f[1]);
            case "agent" -> FilterKey.agent(new Ifi(Ifi.Kind.MBOX, "mailto:" + f[1] + "@example.com", null));
            default -> FilterKey.activity(f[1]);
        };
        TreeSet<String> out = new TreeSet<>();
        for (byte[] json : reader.page(new StatementQuery(List.of(new KeyFilter(key, key.kind() != FilterKey.Kind.VERB)), null, null, 100, false, 0)).statements()) {
            Matcher m = ID.matcher(new String(json, StandardCharsets.UTF_8));
            m.find();
            UUID id = UUID.fromString(m.group(1));
            IDS.forEach((name, uuid) -> {
                if (uuid.equals(id)) {
                    out.add(name);
                }
            });
        }
        return out;
    }

    private static StoredStatement statement(S s, long stored) {
        String object = s.refTo() != null
                ? "{\"objectType\":\"StatementRef\",\"id\":\"" + id(s.refTo()) + "\"}"
                : "{\"id\":\"" + (s.activity() != null ? s.activity() : "a:" + s.name()) + "\"}";
        String json = "{\"id\":\"" + id(s.name()) + "\",\"actor\":{\"mbox\":\"mailto:" + s.mbox() + "@example.com\"},"
                + "\"verb\":{\"id\":\"" + s.verb() + "\"},\"object\":" + object + "}";
        return new StoredStatement(id(s.name()), stored, json.getBytes(StandardCharsets.UTF_8));
    }

    private static <T> List<List<T>> permutations(List<T> items) {
        if (items.size() <= 1) {
            return List.of(items);
        }
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            List<T> rest = new ArrayList<>(items);
            T first = rest.remove(i);
            for (List<T> p : permutations(rest)) {
                List<T> l = new ArrayList<>();
                l.add(first);
                l.addAll(p);
                out.add(l);
            }
        }
        return out;
    }
}
