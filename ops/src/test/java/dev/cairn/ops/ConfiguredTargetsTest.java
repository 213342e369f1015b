package dev.cairn.ops;

import static dev.cairn.ops.ImportTestSupport.awaitStatements;
import static dev.cairn.ops.ImportTestSupport.postLearnerStatements;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.Database;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forwarding targets in the configuration file ({@code target.NAME.FIELD=value}): a bad one stops every command at
 * start naming the target and the field; a good one is stored by the forwarding process and forwards, and a changed
 * definition replaces the stored one while its cursor stays.
 */
class ConfiguredTargetsTest {
    @TempDir
    Path dir;

    private Path file(String content) throws Exception {
        return Files.writeString(dir.resolve("cairn-" + System.nanoTime() + ".properties"), content);
    }

    @Test
    void aBadTargetStopsTheProcessAtStartNamingTheTargetAndTheField() throws Exception {
        String[][] cases = {
            {"target.hook.kind=ftp\ntarget.hook.url=http://127.0.0.1:9/\n", "target hook field kind"},
            {"target.hook.kind=webhook\ntarget.hook.url=not a url\n", "target hook field url"},
            {"target.lrs.kind=lrs\ntarget.lrs.url=http://127.0.0.1:9/xapi\n", "target lrs field credential"},
            {"target.hook.kind=webhook\ntarget.hook.url=http://127.0.0.1:9/\ntarget.hook.filter=agent=notjson\n",
                "target hook field filter"},
            {"target.hook.kind=webhook\ntarget.hook.url=http://127.0.0.1:9/\ntarget.hook.batch=many\n",
                "target hook field batch"},
            {"target.lrs.kind=lrs\ntarget.lrs.url=http://127.0.0.1:9/xapi\ntarget.lrs.credential=k:s\n"
                + "target.lrs.lrs-version=1.1.0\n", "target lrs field lrs-version"},
            {"target.hook.kind=webhook\ntarget.hook.url=http://127.0.0.1:9/\ntarget.hook.lrs-version=1.0.3\n",
                "target hook field lrs-version"},
            {"target.hook.kind=webhook\ntarget.hook.url=http://127.0.0.1:9/\ntarget.hook.colour=red\n",
                "'target.hook.colour' is not a target's line"},
        };
        for (String[] c : cases) {
            Path f = file(c[0]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConfigDefaults.from(new String[] {"--config", f.toString()}, Map.of()), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[1] + " named: " + e.getMessage());
            assertEquals(2, Main.run(Map.of(), "serve", "--config", f.toString(), "--data", dir.toString()));
        }
    }

    @Test
    void aConfiguredTargetIsStoredForwardedToAndItsChangedDefinitionReplacesTheStoredOne() throws Exception {
        Path data = dir.resolve("source");
        try (TestLrs target = new TestLrs(dir.resolve("target"), null)) {
            String lines = "target.second.kind=lrs\ntarget.second.url=" + target.base() + "/xapi\n"
                    + "target.second.credential=" + TestLrs.KEY + ":" + TestLrs.SECRET + "\ntarget.second.from=start\n"
                    + "target.second.max-delay=20\n";
            List<ForwardTarget> configured = ConfiguredTargets.read(file(lines));
            try (TestLrs source = new TestLrs(TestLrs.settings(data, null), configured)) {
                postLearnerStatements(source, 5);
                assertEquals(5, awaitStatements(target, 5).size());
            }
            List<ForwardTarget> changed = ConfiguredTargets.read(file(lines + "target.second.batch=7\n"));
            try (TestLrs source = new TestLrs(TestLrs.settings(data, null), changed)) {
                postLearnerStatements(source, 3);
                assertEquals(8, awaitStatements(target, 8).size(), "the cursor stayed: nothing sent twice");
                try (Database db = Database.open("jdbc:sqlite:" + data.resolve("cairn.db"))) {
                    ForwardTarget stored = new ForwardStore(db).find("second").orElseThrow();
                    assertEquals(7, stored.batchSize());
                    assertTrue(stored.logPosition() != null && stored.logPosition() >= 0);
                }
            }
        }
    }
}
