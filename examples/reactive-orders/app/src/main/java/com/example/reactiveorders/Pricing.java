package com.example.reactiveorders;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The price of an order: a list price per SKU (here derived from the SKU itself) times the quantity. */
public final class Pricing {
    private Pricing() {
    }

    public static BigDecimal total(String sku, int quantity) {
        return listPrice(sku).multiply(BigDecimal.valueOf(quantity)).setScale(2, RoundingMode.HALF_EVEN);
    }

    /** From 1.00 to 100.99, the same for the same SKU. */
    static BigDecimal listPrice(String sku) {
        byte[] digest = sha256(sku);
        int cents = Integer.parseUnsignedInt(HexFormat.of().formatHex(digest, 0, 3), 16) % 10_000;
        return BigDecimal.valueOf(100 + cents, 2);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
