package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Each setting is declared once, in SettingTable; the options, --help and the README's table follow from it. */
class SettingTableTest {
    @TempDir
    Path dir;

    /** The README's configuration table: one row of flag, environment variable, default per setting, in order. */
    @Test
    void theReadmeTableListsEverySettingWithItsVariableAndDefaultInOrder() throws Exception {
        List<String> readme = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("..", "README.md"))) {
            if (line.startsWith("| `--")) {
                String[] cells = line.split("\\|");
                readme.add(cells[1].strip() + " " + cells[2].strip() + " " + cells[3].strip().replace("`", ""));
            }
        }
        List<String> table = SettingTable.ALL.stream()
                .map(s -> "`" + s.flag() + "` `" + s.variable() + "` " + s.shownDefault()).toList();
        assertEquals(table, readme);
    }

    @Test
    void everyCommandThatRunsCairnOffersEverySettingAsAFlagWithItsVariableInTheHelp() {
        CommandLine cairn = new CommandLine(new Main());
        for (String command : List.of("serve", "ingest", "project", "query", "replay", "import")) {
            CommandLine c = cairn.getSubcommands().get(command);
            String help = c.getUsageMessage(CommandLine.Help.Ansi.OFF);
            for (Setting<?> s : SettingTable.ALL) {
                assertTrue(c.getCommandSpec().findOption(s.flag()) != null, command + " " + s.flag());
                assertTrue(help.contains(s.variable()), command + " --help names " + s.variable());
            }
        }
    }

    @Test
    void aDefaultDependsOnTheSettingsItIsDerivedFrom() {
        Settings s = Settings.parse(Map.of("data", dir.toString(), "max-body", "2048"));
        assertEquals(dir.resolve("log"), s.get(SettingTable.LOG_DIR));
        assertEquals(dir.resolve("cairn.db"), s.get(SettingTable.DB).sqliteFile().orElseThrow());
        assertEquals(4 * 2048L, s.get(SettingTable.MAX_UNAUTHENTICATED_BODY));
    }

    @Test
    void aValueThatIsNoNumberIsRefusedWithItsName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.parse(Map.of("port", "eighty")));
        assertEquals("port=eighty is not a whole number", e.getMessage());
    }

    @Test
    void aRefusedCredentialIsNotRepeatedInTheMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.parse(Map.of("admin-credential", "no-colon-secret")));
        assertEquals("admin-credential must be KEY:SECRET with both parts non-empty", e.getMessage());
    }

    @Test
    void settingsThatContradictEachOtherAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.parse(Map.of("default-limit", "500", "max-limit", "100")));
        assertEquals("default-limit=500 must be at least 1 and at most max-limit=100", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Settings.parse(Map.of("max-body", "4096", "max-unauthenticated-body", "2048")));
        assertEquals("max-unauthenticated-body=2048 is below max-body=4096", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Settings.parse(Map.of("ready-lag", "100")));
        assertEquals("projector-linger=500 must be below ready-lag=100, or health would call a lingering projector late",
                e.getMessage());
    }

    @Test
    void aBadSettingStopsEveryCommandWithExitCode2AndOneLine() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, Main.run(Map.of(), "credentials", "list", "--data", dir.toString(), "--ack", "later"));
        } finally {
            System.setErr(err);
        }
        assertEquals("cairn credentials list: ack=later must be durable or visible",
                captured.toString(StandardCharsets.UTF_8).strip());
    }
}
