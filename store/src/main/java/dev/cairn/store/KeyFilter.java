package dev.cairn.store;

import dev.cairn.xapi.FilterKey;

/** One filter of a statement query: a key, read narrowly (actor/object only) or broadly (related_*). */
public record KeyFilter(FilterKey key, boolean narrow) {
}
