package dev.cairn.store;

import java.util.List;

/**
 * A statement query as the store runs it: all filters must match (AND); {@code since} is exclusive and
 * {@code until} inclusive, both on the stored time in milliseconds (null when absent); {@code afterSeq} is the
 * cursor of a {@code more} link (0 for a first page): the page continues past it in the query's direction.
 */
public record StatementQuery(List<KeyFilter> filters, Long sinceMillis, Long untilMillis, int limit,
                             boolean ascending, long afterSeq) {
}
