package dev.cairn.bench;

import dev.cairn.bench.MixedLoad.Read;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rebuild invariant after a mixed load (issue 19): {@code cairn serve} takes a {@link MixedLoad} over HTTP, is
 * stopped, and {@code cairn replay} must rebuild tables equal to the live ones ({@link ReplayComparison}); reads that
 * show what was written (a StatementRef's match through its target, a voided statement, a merged document, ...) must
 * answer as the spec says before the replay, and the same after it.
 */
final class MixedRebuild {
    private MixedRebuild() {
    }

    /** {@code --rounds} rounds of the mixed load, the replay, and the reads before and after. */
    static List<InvariantRow> check(String dialect, Path dir, Options o) throws Exception {
        int rounds = o.intValue("rounds");
        try (BenchDatabase db = BenchDatabase.create(dialect, Files.createDirectories(dir), "mixed_rebuild")) {
            Path data = dir.resolve("data");
            Map<String, String> settings = Map.of("CAIRN_DB", db.url());
            MixedLoad load;
            List<String> before;
            try (CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings)) {
                XapiClient xapi = new XapiClient(server.url(), Invariants.CREDENTIAL);
                load = MixedLoad.write(xapi, rounds, o.longValue("seed"));
                before = answers(xapi, load.reads());
                server.stop();
            }
            InvariantRow replay = ReplayComparison.row(dialect, data, db.url(), "after the mixed load");
            List<String> after;
            try (CairnProcess server = CairnProcess.serve(data, Invariants.CREDENTIAL, settings)) {
                after = answers(new XapiClient(server.url(), Invariants.CREDENTIAL), load.reads());
                server.stop();
            }
            return List.of(load.row(dialect, rounds), replay, readsRow(dialect, load.reads(), before, after));
        }
    }

    /** Each read's answer as "status body", a multipart body's boundary (new in every response) replaced. */
    private static List<String> answers(XapiClient xapi, List<Read> reads) throws IOException, InterruptedException {
        List<String> answers = new ArrayList<>();
        for (Read read : reads) {
            HttpResponse<String> r = xapi.get(read.path());
            String type = r.headers().firstValue("Content-Type").orElse("");
            int boundary = type.indexOf("boundary=");
            String body = boundary < 0 ? r.body() : r.body().replace(type.substring(boundary + 9), "BOUNDARY");
            answers.add(r.statusCode() + " " + body);
        }
        return answers;
    }

    private static InvariantRow readsRow(String dialect, List<Read> reads, List<String> before, List<String> after) {
        List<String> wrong = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            Read read = reads.get(i);
            String answer = before.get(i);
            int space = answer.indexOf(' ');
            if (Integer.parseInt(answer.substring(0, space)) != read.status()
                    || !read.body().test(answer.substring(space + 1))) {
                wrong.add(read.what() + " (" + answer.substring(0, Math.min(200, answer.length())) + ")");
            }
            if (!answer.equals(after.get(i))) {
                changed.add(read.what());
            }
        }
        return new InvariantRow(dialect, reads.size() + " reads before and after the replay: StatementRef matches in "
                + "every arrival order, voided statements, an attachment, merged and deleted documents, a changed "
                + "definition, an agent's names",
                "each as the spec says before the replay, and the same answer after it",
                (reads.size() - wrong.size()) + " of " + reads.size() + " as the spec says, " + (reads.size()
                        - changed.size()) + " of " + reads.size() + " the same after" + (wrong.isEmpty() ? ""
                        : "; not as the spec says: " + wrong) + (changed.isEmpty() ? "" : "; changed: " + changed),
                !reads.isEmpty() && wrong.isEmpty() && changed.isEmpty());
    }
}
