package dev.cairn.bench;

import dev.cairn.auth.AdminCredential;
import dev.cairn.log.StoredStatement;
import dev.cairn.xapi.ActorWriter;
import dev.cairn.xapi.Agent;
import dev.cairn.xapi.ExactWriter;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.Timestamps;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A deterministic stream of realistic statements shaped like {@code statement-1k.json} (about 1 KB each): statement
 * {@code i} is a pure function of {@code i} and the StatementRef share, so a harness can regenerate any prefix,
 * know every id without storing it, and load the same data over HTTP or straight into the log.
 *
 * <p>Statements come in sessions of {@value #SESSION} that share a learner, a registration and a course. Learners
 * are drawn from {@value #LEARNERS}; one session in {@value #HOT_EVERY} belongs to {@link #HOT_LEARNER}, the agent
 * the benchmarks query (2% of statements). Verbs are uniform over eight ADL verbs ({@link #HOT_VERB} is one of
 * them: 12.5%); activities are lessons of 20 courses × 5 modules × 10 lessons, each with its module as parent and
 * a profile as category; an instructor from 50 is a broad agent match. A StatementRef statement "commented on" or
 * "shared" a uniformly chosen earlier statement and inherits all its matches.
 */
public final class StatementCorpus {
    public static final String HOT_VERB = "http://adlnet.gov/expapi/verbs/completed";
    public static final String ABSENT_VERB = "http://example.com/verbs/never-used";
    public static final String HOT_LEARNER = "mailto:learner-0@example.com";
    /** The authority the server stamps for the bench credential (see ops AdminCredential). */
    public static final byte[] AUTHORITY = ActorWriter.write(
            new Agent("bench", new Ifi(Ifi.Kind.ACCOUNT, "http://cairn.local/credentials", "bench")));

    private static final int SESSION = 8;
    private static final int LEARNERS = 5_000;
    private static final int HOT_EVERY = 50;
    private static final String[] VERBS = {"experienced", "attempted", "completed", "passed", "failed", "answered",
            "launched", "progressed"};
    private static final String[] REF_VERBS = {"commented", "shared"};
    private static final String[] TOPICS = {"safety", "first-aid", "forklift", "data-protection", "fire-drill"};

    private final double refShare;

    /** @param refShare the share of statements (0 to 1) whose object is a StatementRef to an earlier statement */
    public StatementCorpus(double refShare) {
        this.refShare = refShare;
    }

    public double refShare() {
        return refShare;
    }

    /** The id of statement {@code i}: a version 4 UUID derived from {@code i}. */
    public static UUID id(long i) {
        long hi = (mix(i * 2 + 1) & 0xffffffffffff0fffL) | 0x4000L;
        long lo = (mix(i * 2 + 2) & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(hi, lo);
    }

    /** Whether statement {@code i} is a StatementRef (statement 0 never is: it has nothing earlier to point at). */
    public boolean isRef(long i) {
        return i > 0 && unit(mix(i ^ 0x5eedL)) < refShare;
    }

    /** Statement {@code i} as a client sends it (with its id), UTF-8. */
    public byte[] json(long i) {
        long session = i / SESSION;
        long s = mix(session + 0x1234L);
        int learner = session % HOT_EVERY == 0 ? 0 : 1 + (int) Long.remainderUnsigned(s, LEARNERS - 1);
        int course = (int) Long.remainderUnsigned(s >>> 20, 20);
        long r = mix(i);
        int module = 1 + (int) Long.remainderUnsigned(r, 5);
        int lesson = 1 + (int) Long.remainderUnsigned(r >>> 8, 10);
        String topic = TOPICS[course % TOPICS.length];
        String courseIri = "http://example.com/courses/" + topic + "-" + course;
        String moduleIri = courseIri + "/module-" + module;
        StringBuilder b = new StringBuilder(1300);
        b.append("{\"id\":\"").append(id(i)).append("\",\"actor\":{\"objectType\":\"Agent\",\"name\":\"Learner ")
                .append(learner).append("\",\"mbox\":\"mailto:learner-").append(learner).append("@example.com\"},");
        boolean ref = isRef(i);
        if (ref) {
            String verb = REF_VERBS[(int) Long.remainderUnsigned(r >>> 16, REF_VERBS.length)];
            long target = Long.remainderUnsigned(mix(i ^ 0xa11ceL), i);
            b.append("\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/").append(verb)
                    .append("\",\"display\":{\"en-US\":\"").append(verb).append("\"}},")
                    .append("\"object\":{\"objectType\":\"StatementRef\",\"id\":\"").append(id(target)).append("\"},")
                    .append("\"result\":{\"response\":\"Good explanation of the ladder checks; the harness part could")
                    .append(" use a diagram of the anchor points and a note on rescue plans.\"},");
        } else {
            String verb = VERBS[(int) Long.remainderUnsigned(r >>> 16, VERBS.length)];
            int raw = (int) Long.remainderUnsigned(r >>> 24, 101);
            b.append("\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/").append(verb)
                    .append("\",\"display\":{\"en-US\":\"").append(verb).append("\",\"de-DE\":\"").append(verb)
                    .append("\"}},\"object\":{\"objectType\":\"Activity\",\"id\":\"").append(moduleIri)
                    .append("/lesson-").append(lesson).append("\",\"definition\":{\"name\":{\"en-US\":\"Lesson ")
                    .append(lesson).append(": ").append(topic).append(" in practice\"},\"description\":{\"en-US\":")
                    .append("\"How to plan and carry out the work safely, with the right equipment and checks.\"},")
                    .append("\"type\":\"http://adlnet.gov/expapi/activities/lesson\",\"moreInfo\":\"").append(moduleIri)
                    .append("/lesson-").append(lesson).append("/info\"}},")
                    .append("\"result\":{\"score\":{\"scaled\":").append(raw / 100.0).append(",\"raw\":").append(raw)
                    .append(",\"min\":0,\"max\":100},\"success\":").append(raw >= 60).append(",\"completion\":true,")
                    .append("\"duration\":\"PT").append(1 + raw / 5).append("M").append(raw % 60).append("S\",")
                    .append("\"response\":\"ladder inspected, harness fitted\"},");
        }
        int instructor = (int) Long.remainderUnsigned(s >>> 40, 50);
        b.append("\"context\":{\"registration\":\"").append(new UUID(mix(session ^ 0x7e6L), mix(session ^ 0x7e7L)))
                .append("\",\"instructor\":{\"name\":\"Instructor ").append(instructor)
                .append("\",\"mbox\":\"mailto:instructor-").append(instructor).append("@example.com\"},")
                // platform (like revision) is allowed only when the object is an Activity (Data 2.4.6).
                .append(ref ? "" : "\"platform\":\"Example LMS\",").append("\"language\":\"en-US\",\"contextActivities\":{\"parent\":[{\"id\":\"")
                .append(moduleIri).append("\",\"objectType\":\"Activity\"}],\"category\":[{\"id\":\"")
                .append("http://example.com/profiles/").append(topic).append("-training\",\"definition\":{\"type\":")
                .append("\"http://adlnet.gov/expapi/activities/profile\"}}]}},\"timestamp\":\"")
                .append(Timestamps.format(1_777_000_000_000L + i * 1000)).append("\"}");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Statement {@code i} as the sequencer would store it: id, stored time, authority and version added. */
    public StoredStatement stored(long i, long storedMillis) {
        byte[] json = ExactWriter.write(StatementParser.parseOne(json(i), XapiVersion.V2_0_0), id(i),
                Timestamps.format(storedMillis), AUTHORITY, "2.0.0");
        return new StoredStatement(id(i), storedMillis, json);
    }

    /** SplitMix64's finalizer: a cheap, well-spread hash of {@code x}. */
    static long mix(long x) {
        long z = x + 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static double unit(long x) {
        return (x >>> 11) * 0x1.0p-53;
    }
}
