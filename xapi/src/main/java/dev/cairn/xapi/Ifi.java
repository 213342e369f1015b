package dev.cairn.xapi;

/**
 * An Inverse Functional Identifier of an Agent or Group (Data 2.4.2.3): exactly one of mbox, mbox_sha1sum,
 * openid or account. For an account, {@code value} is the homePage and {@code accountName} the name.
 */
public record Ifi(Kind kind, String value, String accountName) {
    public enum Kind { MBOX, MBOX_SHA1SUM, OPENID, ACCOUNT }

    /** A single string that identifies this IFI, used as the filter key and for equality across statements. */
    public String key() {
        return switch (kind) {
            case MBOX -> "mbox:" + value;
            case MBOX_SHA1SUM -> "mbox_sha1sum:" + value;
            case OPENID -> "openid:" + value;
            case ACCOUNT -> "account:" + accountName + "@" + value;
        };
    }
}
