package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.auth.KeyAndSecret;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where secrets and data live: the admin secret out of the command line, the data directory the owner's alone. */
class DataAtRestTest {
    @TempDir
    Path dir;

    /** The settings of {@code cairn serve ARGS} with environment {@code env}, and what it wrote to stderr. */
    private record Parsed(Settings settings, String stderr) {
    }

    private Parsed serve(Map<String, String> env, String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            ServeCommand serve = new ServeCommand();
            new CommandLine(serve).setDefaultValueProvider(ConfigDefaults.from(args, env)).parseArgs(args);
            return new Parsed(serve.options.settings(), captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
    }

    @Test
    void theAdminCredentialIsReadFromAFileNamedByAFlagOrTheEnvironment() throws Exception {
        Path file = dir.resolve("admin.credential");
        Files.writeString(file, "admin:from-the-file-0123\n");
        Parsed flag = serve(Map.of(), "--admin-credential-file", file.toString());
        assertEquals(new KeyAndSecret("admin", "from-the-file-0123"), flag.settings().get(SettingTable.ADMIN_CREDENTIAL));
        assertEquals("", flag.stderr());
        Parsed env = serve(Map.of("CAIRN_ADMIN_CREDENTIAL_FILE", file.toString()));
        assertEquals(new KeyAndSecret("admin", "from-the-file-0123"), env.settings().get(SettingTable.ADMIN_CREDENTIAL));
    }

    @Test
    void aSecretGivenAsAFlagIsWarnedAboutAndOneFromTheEnvironmentIsNot() {
        Parsed flag = serve(Map.of(), "--admin-credential", "admin:on-the-command-line");
        assertEquals(new KeyAndSecret("admin", "on-the-command-line"), flag.settings().get(SettingTable.ADMIN_CREDENTIAL));
        assertTrue(flag.stderr().contains("warning: --admin-credential shows the secret"), flag.stderr());
        Parsed env = serve(Map.of("CAIRN_ADMIN_CREDENTIAL", "admin:in-the-environment"));
        assertEquals(new KeyAndSecret("admin", "in-the-environment"), env.settings().get(SettingTable.ADMIN_CREDENTIAL));
        assertEquals("", env.stderr());
    }

    @Test
    void aCredentialAndACredentialFileTogetherAreRefused() throws Exception {
        Path file = dir.resolve("admin.credential");
        Files.writeString(file, "admin:from-the-file-0123\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> serve(
                Map.of("CAIRN_ADMIN_CREDENTIAL", "admin:x"), "--admin-credential-file", file.toString()));
        assertTrue(e.getMessage().contains("both"), e.getMessage());
        assertEquals(2, Main.run(Map.of(), "serve", "--data", dir.toString(), "--admin-credential-file",
                dir.resolve("missing").toString()));
    }

    @Test
    void aFreshStartLeavesTheDataDirectoryAndItsFilesToTheOwnerAlone() throws Exception {
        Path data = dir.resolve("fresh/data");
        Settings s = TestLrs.settings(data, null);
        try (Cairn cairn = Cairn.start(s, Clock.systemUTC())) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + cairn.port() + "/xapi/statements")).header("X-Experience-API-Version", "1.0.3")
                    .header("Authorization", TestLrs.basic(TestLrs.KEY, TestLrs.SECRET)).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(Statements.statement("p@example.com",
                    Statements.COMPLETED, "http://example.com/p"))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("rwx------", permissions(dir.resolve("fresh")));
            assertEquals("rwx------", permissions(data));
            assertEquals("rwx------", permissions(data.resolve("log")));
            try (Stream<Path> files = Files.list(data)) {
                for (Path f : files.filter(f -> f.getFileName().toString().startsWith("cairn.db")).toList()) {
                    assertEquals("rw-------", permissions(f), f.toString());
                }
            }
            assertTrue(Files.exists(data.resolve("cairn.db-wal")), "the write-ahead log is checked too");
        }
    }

    private static String permissions(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
