package dev.cairn.store;

/**
 * A target statements are forwarded to, as stored ({@code cairn targets}, {@code /admin/targets}); the forward module
 * checks it and delivers to it.
 *
 * @param kind         {@code lrs} (statement batches POSTed to another xAPI endpoint) or {@code webhook} (a JSON
 *                     envelope POSTed to a URL)
 * @param url          the xAPI endpoint (ending before {@code /statements}) or the webhook's URL
 * @param credential   {@code key:secret} for Basic authentication at an LRS, or null
 * @param secret       the HMAC-SHA256 key a webhook's body is signed with, or null for unsigned
 * @param filter       the statement query a statement must match to be forwarded (GET /statements' parameters, as a
 *                     query string: verb, activity, agent, registration, related_*); empty for every statement
 * @param xapiVersion  the xAPI version an lrs target speaks ({@code 1.0.3} or {@code 2.0.0}: its
 *                     X-Experience-API-Version), or null for the version this server reports ({@code --xapi-version})
 * @param logPosition  the log position it has delivered or passed over up to, or null before its forwarder started
 *                     it at the log's end
 */
public record ForwardTarget(String name, String kind, String url, String credential, String secret, String filter,
                            int batchSize, long maxDelayMillis, String xapiVersion, boolean paused, Long logPosition) {
}
