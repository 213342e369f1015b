package dev.cairn.forward;

import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A stored forwarding target, checked: its URL parsed, its filter read, and the xAPI version it speaks resolved (for a
 * webhook, the server's, which nothing sends).
 */
public record Target(ForwardTarget stored, URI url, StatementFilter filter, XapiVersion version) {
    public static final String LRS = "lrs";
    public static final String WEBHOOK = "webhook";
    public static final int MAX_BATCH = 10_000;
    public static final long MAX_DELAY_MILLIS = 3_600_000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public String name() {
        return stored.name();
    }

    /**
     * Whether this target can take a statement of {@code statementVersion} (its {@code version} property): an LRS of
     * 1.0.3 takes only 1.0.x statements, since xAPI forbids converting a statement to a prior version (Data 2.4.10);
     * one of 2.0.0 takes both.
     */
    public boolean takes(String statementVersion) {
        return !passesOverByVersion() || statementVersion == null || statementVersion.startsWith("1.0");
    }

    /** Whether some statements are passed over for their version: an LRS of 1.0.3 (a webhook takes every one). */
    public boolean passesOverByVersion() {
        return LRS.equals(stored.kind()) && version == XapiVersion.V1_0_3;
    }

    /**
     * Checks a target as a configuration, the CLI or the admin API gives it.
     *
     * @throws XapiException naming the target and the field that is wrong ({@code where}: "target NAME field FIELD")
     */
    public static Target check(ForwardTarget t, XapiVersion version) {
        String name = t.name() == null ? "" : t.name();
        if (!NAME.matcher(name).matches()) {
            throw invalid(name, "name", "a target's name is 1-64 letters, digits, '.', '_' or '-', starting with a "
                    + "letter or digit; got '" + name + "'");
        }
        if (!LRS.equals(t.kind()) && !WEBHOOK.equals(t.kind())) {
            throw invalid(name, "kind", "kind must be 'lrs' or 'webhook'; got '" + t.kind() + "'");
        }
        URI url;
        try {
            url = new URI(t.url() == null ? "" : t.url());
        } catch (URISyntaxException e) {
            throw invalid(name, "url", "url is not a URL: " + e.getMessage());
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null || url.getRawFragment() != null
                || url.getRawUserInfo() != null || url.getPort() > 65535) {
            throw invalid(name, "url", "url must be an absolute http or https URL with a host (and a port up to 65535), and no user "
                    + "info or fragment (an LRS's credential goes in 'credential'); got '" + t.url() + "'");
        }
        if (LRS.equals(t.kind())) {
            if (t.credential() == null || t.credential().indexOf(':') < 1) {
                throw invalid(name, "credential", "an lrs target needs the credential Cairn authenticates with there,"
                        + " as key:secret");
            }
            if (t.secret() != null) {
                throw invalid(name, "secret", "secret signs a webhook's body; an lrs target takes a credential");
            }
        } else if (t.credential() != null) {
            throw invalid(name, "credential", "a webhook target takes a secret (its body's HMAC-SHA256 key), not a "
                    + "credential");
        }
        if (t.secret() != null && t.secret().length() < 16) {
            throw invalid(name, "secret", "a webhook's secret must be at least 16 characters");
        }
        if (t.batchSize() < 1 || t.batchSize() > MAX_BATCH) {
            throw invalid(name, "batch", "batch must be 1 to " + MAX_BATCH + " statements; got " + t.batchSize());
        }
        if (t.maxDelayMillis() < 0 || t.maxDelayMillis() > MAX_DELAY_MILLIS) {
            throw invalid(name, "max-delay", "max-delay must be 0 to " + MAX_DELAY_MILLIS + " ms; got "
                    + t.maxDelayMillis());
        }
        XapiVersion speaks = version; // a webhook's is never sent
        if (t.xapiVersion() != null) {
            if (!LRS.equals(t.kind())) {
                throw invalid(name, "lrs-version", "lrs-version is the version an lrs target speaks; a webhook "
                        + "takes none");
            }
            speaks = Arrays.stream(XapiVersion.values()).filter(v -> v.header().equals(t.xapiVersion())).findFirst()
                    .orElseThrow(() -> invalid(name, "lrs-version", "lrs-version must be 1.0.3 or 2.0.0; got '"
                            + t.xapiVersion() + "'"));
        }
        StatementFilter filter;
        try {
            filter = StatementFilter.parse(t.filter(), version);
        } catch (XapiException e) {
            throw invalid(name, "filter", e.getMessage());
        }
        return new Target(t, url, filter, speaks);
    }

    private static XapiException invalid(String name, String field, String message) {
        return new XapiException("target " + name + " field " + field, "target.invalid", message);
    }
}
