package dev.cairn.ops;

/** Statement bodies for tests. */
final class Statements {
    static final String COMPLETED = "http://adlnet.gov/expapi/verbs/completed";
    static final String ATTEMPTED = "http://adlnet.gov/expapi/verbs/attempted";

    private Statements() {
    }

    static String statement(String mbox, String verb, String activity) {
        return "{\"actor\":{\"objectType\":\"Agent\",\"name\":\"Learner\",\"mbox\":\"mailto:" + mbox + "\"},"
                + "\"verb\":{\"id\":\"" + verb + "\",\"display\":{\"en-US\":\"did\"}},"
                + "\"object\":{\"id\":\"" + activity + "\",\"definition\":{\"name\":{\"en-US\":\"An activity\"}}}}";
    }

    static String withId(String id, String mbox, String verb, String activity) {
        return "{\"id\":\"" + id + "\"," + statement(mbox, verb, activity).substring(1);
    }
}
