package dev.cairn.store;

/**
 * A batch a forwarding target refused with a 4xx (other than those retried: 401, 403, 408, 429), kept with its answer
 * until it is retried or dropped; forwarding goes on after it.
 *
 * @param lastPosition the log position of the last entry the batch holds statements of
 * @param body         what was POSTed (null where a listing leaves it out)
 * @param contentType  the Content-Type it was POSTed with (null where a listing leaves it out)
 */
public record DeadLetter(long id, String target, long lastPosition, int statements, int status, String response,
                         long atMillis, byte[] body, String contentType) {
}
