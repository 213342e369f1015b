package dev.cairn.http;

import dev.cairn.xapi.XapiVersion;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HttpString;

/** What the handler chain attaches to an exchange, and the xAPI headers. */
public final class Exchanges {
    public static final AttachmentKey<XapiVersion> VERSION = AttachmentKey.create(XapiVersion.class);
    public static final AttachmentKey<Principal> PRINCIPAL = AttachmentKey.create(Principal.class);
    /** A request body already read: the content of an Alternate Request Syntax form (Comm 1.3). */
    public static final AttachmentKey<byte[]> BODY = AttachmentKey.create(byte[].class);
    public static final HttpString VERSION_HEADER = new HttpString("X-Experience-API-Version");
    public static final HttpString CONSISTENT_THROUGH = new HttpString("X-Experience-API-Consistent-Through");

    private Exchanges() {
    }

    public static XapiVersion version(HttpServerExchange exchange) {
        XapiVersion v = exchange.getAttachment(VERSION);
        return v == null ? XapiVersion.V2_0_0 : v;
    }

    public static Principal principal(HttpServerExchange exchange) {
        return exchange.getAttachment(PRINCIPAL);
    }
}
