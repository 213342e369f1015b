package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.ingest.AckMode;
import dev.cairn.store.DatabaseUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Settings come from flags, then environment variables, then the configuration file, then the defaults. */
class ConfigurationTest {
    @TempDir
    Path dir;

    private Settings settings(Map<String, String> env, String... args) {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).setDefaultValueProvider(ConfigDefaults.from(args, env)).parseArgs(args);
        return serve.options.settings();
    }

    @Test
    void defaultsApplyWhenNothingIsGiven() {
        Settings s = settings(Map.of());
        assertEquals(8080, s.get(SettingTable.PORT));
        assertEquals("127.0.0.1", s.get(SettingTable.HOST));
        assertEquals(AckMode.VISIBLE, s.get(SettingTable.ACK));
        assertEquals(DatabaseUrl.sqlite(Path.of("data", "cairn.db").toAbsolutePath()), s.get(SettingTable.DB));
    }

    @Test
    void aFlagWinsOverTheEnvironmentWhichWinsOverTheFile() throws Exception {
        Path file = dir.resolve("cairn.properties");
        Files.writeString(file, "port=7001\nhost=0.0.0.0\nmax-limit=500\n");
        Settings fileOnly = settings(Map.of(), "--config", file.toString());
        assertEquals(7001, fileOnly.get(SettingTable.PORT));
        assertEquals(500, fileOnly.get(SettingTable.MAX_LIMIT));

        Settings envOverFile = settings(Map.of("CAIRN_PORT", "7002"), "--config", file.toString());
        assertEquals(7002, envOverFile.get(SettingTable.PORT));
        assertEquals("0.0.0.0", envOverFile.get(SettingTable.HOST));

        Settings flagOverAll = settings(Map.of("CAIRN_PORT", "7002"), "--config", file.toString(), "--port", "7003");
        assertEquals(7003, flagOverAll.get(SettingTable.PORT));
    }

    @Test
    void theFileCanBeNamedByTheEnvironment() throws Exception {
        Path file = dir.resolve("c.properties");
        Files.writeString(file, "ack=durable\n");
        assertEquals(AckMode.DURABLE, settings(Map.of("CAIRN_CONFIG", file.toString())).get(SettingTable.ACK));
    }

    @Test
    void anUnknownSettingInTheFileIsRefused() throws Exception {
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "prot=8080\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConfigDefaults.from(new String[] {"--config", file.toString()}, Map.of()));
        assertTrue(e.getMessage().contains("'prot' is not a setting"), e.getMessage());
        assertEquals(2, Main.run(Map.of(), "serve", "--config", file.toString()));
    }

    @Test
    void invalidValuesAreRefusedOnceAtStartWithTheirName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of(), "--port", "70000"));
        assertEquals("port=70000 is out of range (0-65535)", e.getMessage());
        assertEquals(2, Main.run(Map.of(), "serve", "--ring-size", "1000", "--data", dir.toString()));
        assertEquals(2, Main.run(Map.of(), "serve", "--db", "jdbc:mysql://x", "--data", dir.toString()));
        assertEquals(2, Main.run(Map.of(), "serve", "--xapi-version", "1.1.0", "--data", dir.toString()));
    }

    @Test
    void aDatabaseThatCannotBeOpenedStopsACommandWithWhatItSaidNotAStackTrace() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertEquals(1, Main.run(Map.of(), "targets", "list", "--data", dir.resolve("not-made-yet").toString()));
        } finally {
            System.setErr(err);
        }
        String text = said.toString(java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assertions.assertTrue(text.startsWith("cairn targets list: cannot open database"), text);
        org.junit.jupiter.api.Assertions.assertFalse(text.contains("\tat "), text);
    }

    @Test
    void timeoutsAndTheConnectionCapHaveDefaultsAndComeFromFlagsEnvironmentOrFile() throws Exception {
        Settings d = settings(Map.of());
        assertEquals(10_000L, d.get(SettingTable.HEADER_TIMEOUT));
        assertEquals(60_000L, d.get(SettingTable.BODY_TIMEOUT));
        assertEquals(1000, d.get(SettingTable.MAX_CONNECTIONS));
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "max-connections=200\n");
        Settings s = settings(Map.of("CAIRN_BODY_TIMEOUT", "120000"), "--config", file.toString(),
                "--header-timeout", "5000");
        assertEquals(5000L, s.get(SettingTable.HEADER_TIMEOUT));
        assertEquals(120_000L, s.get(SettingTable.BODY_TIMEOUT));
        assertEquals(200, s.get(SettingTable.MAX_CONNECTIONS));
    }

    @Test
    void aMaxBodyALogEntryCannotHoldAndNonPositiveLimitsAreRefusedAtStart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of(), "--max-body", "40000000"));
        assertEquals("max-body=40000000 is out of range (1024-" + SettingTable.MAX_MAX_BODY
                + ": a write must fit in one log entry)", e.getMessage());
        settings(Map.of(), "--max-body", String.valueOf(SettingTable.MAX_MAX_BODY));
        assertEquals(2, Main.run(Map.of(), "serve", "--header-timeout", "0", "--data", dir.toString()));
        assertEquals(2, Main.run(Map.of(), "serve", "--body-timeout", "0", "--data", dir.toString()));
        assertEquals(2, Main.run(Map.of(), "serve", "--max-connections", "0", "--data", dir.toString()));
    }

    @Test
    void aRetentionPeriodIsAnHourAtLeastAndIsCheckedAMinuteApartAtLeast() {
        assertNull(settings(Map.of()).get(SettingTable.RETENTION));
        assertEquals(Duration.ofDays(365), settings(Map.of("CAIRN_RETENTION", "P365D")).get(SettingTable.RETENTION));
        assertEquals(Duration.ofHours(1), settings(Map.of(), "--retention", "PT1H").get(SettingTable.RETENTION));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of(), "--retention", "PT1M"));
        assertTrue(e.getMessage().startsWith("retention=PT1M is shorter than an hour (PT1M is a minute, not a month"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> settings(Map.of(), "--retention", "-P1D"));
        e = assertThrows(IllegalArgumentException.class, () -> settings(Map.of(), "--retention", "P1M"));
        assertTrue(e.getMessage().startsWith("retention=P1M is not an ISO 8601 duration"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> settings(Map.of(), "--retention-check", "1000"));
        assertEquals("retention-check=1000 must be at least 60000 ms", e.getMessage());
    }

    @Test
    void thePageByteBoundDefaultsTo16MiBAndIsChecked() {
        assertEquals(16L << 20, settings(Map.of()).get(SettingTable.MAX_PAGE_BYTES));
        assertEquals(65536L, settings(Map.of("CAIRN_MAX_PAGE_BYTES", "65536")).get(SettingTable.MAX_PAGE_BYTES));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of(), "--max-page-bytes", "100"));
        assertEquals("max-page-bytes=100 is out of range (1024-1073741824)", e.getMessage());
    }

    @Test
    void aCommandsOwnOptionComesFromItsFlagOrTheEnvironment() {
        String[] args = {"statements.json"};
        ImportCommand fromEnv = new ImportCommand();
        new CommandLine(fromEnv).setDefaultValueProvider(ConfigDefaults.from(args, Map.of("CAIRN_BATCH", "50",
                "CAIRN_CREDENTIAL", "importer:kept-out-of-ps"))).parseArgs(args);
        assertEquals(50, fromEnv.batch);
        assertEquals("importer:kept-out-of-ps", fromEnv.credential);
        ImportCommand fromFlag = new ImportCommand();
        String[] flagged = {"--batch", "70", "statements.json"};
        new CommandLine(fromFlag).setDefaultValueProvider(ConfigDefaults.from(flagged, Map.of("CAIRN_BATCH", "50")))
                .parseArgs(flagged);
        assertEquals(70, fromFlag.batch);
    }

    @Test
    void anUnknownFlagIsRefused() {
        assertEquals(2, Main.run(Map.of(), "serve", "--prot", "8080"));
    }
}
