package com.example.reactiveorders;

/** What a client sends to create an order. */
public record NewOrder(String sku, int quantity) {
}
