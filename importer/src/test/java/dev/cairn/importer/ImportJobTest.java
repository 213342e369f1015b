package dev.cairn.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.store.DatabaseUrl;
import dev.cairn.xapi.XapiVersion;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An import job is checked once, with messages that name the options a user gives. */
class ImportJobTest {
    @TempDir
    Path dir;

    private ImportJob job(URI target, String host, int batch) throws Exception {
        Path file = Files.writeString(dir.resolve("s.ndjson"), "{}\n");
        Files.createDirectories(dir.resolve("log"));
        return new ImportJob(List.of(file), null, null, null, target, host, 8080, batch, 500, 2, XapiVersion.V2_0_0,
                dir.resolve("log"), DatabaseUrl.sqlite(dir.resolve("cairn.db")), null);
    }

    @Test
    void theRunningIngestIsFoundAtTheListenAddressUnlessATargetIsGiven() throws Exception {
        assertEquals(URI.create("http://127.0.0.1:8080/xapi"), job(null, "127.0.0.1", 100).ingest());
        assertEquals(URI.create("http://[::1]:8080/xapi"), job(null, "::1", 100).ingest());
        URI given = URI.create("https://ingest.example.com/xapi");
        assertEquals(given, job(given, "::", 100).ingest());
    }

    @Test
    void aListenAddressThatMakesNoUrlIsRefusedOnlyWhenTheIngestIsNeeded() throws Exception {
        ImportJob j = job(null, "my_host", 100); // an import that is the sequencer itself never asks
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, j::ingest);
        assertEquals("host=my_host makes no URL of the running ingest; give --target", e.getMessage());
    }

    @Test
    void aBatchTheLogCannotHoldIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> job(null, "127.0.0.1", 10_001));
        assertEquals("--batch=10001 must be between 1 and 10000", e.getMessage());
    }
}
