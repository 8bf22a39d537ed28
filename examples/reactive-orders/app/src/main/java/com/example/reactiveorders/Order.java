package com.example.reactiveorders;

import java.math.BigDecimal;
import java.time.Instant;

/** An order as stored, and as the API answers it. */
public record Order(long id, String sku, int quantity, BigDecimal total, Instant createdAt) {
}
