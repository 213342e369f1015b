package dev.cairn.xapi;

/**
 * Input that breaks an xAPI rule. Carries where (a JSON path such as {@code $.actor.mbox}, a query
 * parameter or a header), a stable code a client can switch on, and a message a developer can act on.
 * The HTTP layer turns it into a 400.
 */
public final class XapiException extends RuntimeException {
    private final String where;
    private final String code;

    public XapiException(String where, String code, String message) {
        super(message, null, false, false);
        this.where = where;
        this.code = code;
    }

    public String where() {
        return where;
    }

    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code + " at " + where + ": " + getMessage();
    }
}
