package dev.cairn.xapi;

import java.math.BigDecimal;

/** A score (Data 2.4.5.1): scaled in [-1, 1], raw within [min, max]. */
public record Score(BigDecimal scaled, BigDecimal raw, BigDecimal min, BigDecimal max) {
}
