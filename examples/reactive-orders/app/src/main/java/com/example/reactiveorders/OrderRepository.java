package com.example.reactiveorders;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** The orders table, through Spring's R2DBC DatabaseClient. */
@Repository
public class OrderRepository {
    private final DatabaseClient db;

    public OrderRepository(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Order> insert(String sku, int quantity, BigDecimal total) {
        return db.sql("""
                insert into orders (sku, quantity, total) values (:sku, :quantity, :total)
                returning id, sku, quantity, total, created_at""")
            .bind("sku", sku).bind("quantity", quantity).bind("total", total)
            .map((row, meta) -> new Order(row.get("id", Long.class), row.get("sku", String.class),
                row.get("quantity", Integer.class), row.get("total", BigDecimal.class),
                row.get("created_at", OffsetDateTime.class).toInstant()))
            .one();
    }

    public Mono<Order> find(long id) {
        return db.sql("select id, sku, quantity, total, created_at from orders where id = :id")
            .bind("id", id)
            .map((row, meta) -> new Order(row.get("id", Long.class), row.get("sku", String.class),
                row.get("quantity", Integer.class), row.get("total", BigDecimal.class),
                row.get("created_at", OffsetDateTime.class).toInstant()))
            .one();
    }
}
