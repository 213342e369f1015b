package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A log of large attachments is projected in memory bounded by bytes, not by a count of statements: the projector
 * reads ahead and commits by statement count (16 chunks of 256 statements, batches of up to --projector-batch), so
 * a backlog of attachments larger than the heap (a replay, or a projector that fell behind while clients uploaded)
 * must still fit. Found by the invariant harness's torn-tail trials, whose replay on PostgreSQL ran out of its 512 MB.
 */
class AttachmentBacklogTest extends LrsOnEachDatabase {
    private static final int STATEMENTS = 64;
    private static final int ATTACHMENT = 3_500_000;

    @Test
    void replayRebuildsALogOfAttachmentsLargerThanItsHeap() throws Exception {
        Random random = new Random(19);
        byte[] content = new byte[ATTACHMENT];
        for (int i = 0; i < STATEMENTS; i++) {
            random.nextBytes(content);
            byte[] body = AttachmentApiTest.multipart(AttachmentApiTest.statement(UUID.randomUUID().toString(),
                    AttachmentApiTest.attachment("http://example.com/usage", "application/octet-stream", content,
                            null)), new Object[] {"application/octet-stream", AttachmentApiTest.sha256(content), content});
            HttpResponse<String> r = lrs.send(lrs.request("/xapi/statements")
                    .header("Content-Type", "multipart/mixed; boundary=" + AttachmentApiTest.BOUNDARY)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
            assertEquals(200, r.statusCode(), r.body());
        }
        lrs.close();
        lrs = null;
        // 224 MB of attachments in the log, 160 MB of heap
        try (ChildProcess replay = new ChildProcess("replay", data.resolve("replay.out"), "--data", data.toString(),
                "--db", database.url()).jvmOptions(List.of("-Xmx160m")).start()) {
            int exit = replay.awaitExit(Duration.ofMinutes(3));
            String out = replay.output();
            assertEquals(0, exit, "cairn replay: " + out.substring(Math.max(0, out.length() - 3000)));
        }
    }
}
