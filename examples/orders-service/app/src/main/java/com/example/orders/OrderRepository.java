package com.example.orders;

import java.math.BigDecimal;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The orders table, through Spring's JdbcClient. */
@Repository
public class OrderRepository {
    private final JdbcClient jdbc;

    public OrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Order insert(String sku, int quantity, BigDecimal total) {
        return jdbc.sql("""
                insert into orders (sku, quantity, total) values (:sku, :quantity, :total)
                returning id, sku, quantity, total, created_at""")
            .param("sku", sku)
            .param("quantity", quantity)
            .param("total", total)
            .query((rs, row) -> new Order(rs.getLong("id"), rs.getString("sku"), rs.getInt("quantity"),
                rs.getBigDecimal("total"), rs.getTimestamp("created_at").toInstant()))
            .single();
    }

    public Optional<Order> find(long id) {
        return jdbc.sql("select id, sku, quantity, total, created_at from orders where id = :id")
            .param("id", id)
            .query((rs, row) -> new Order(rs.getLong("id"), rs.getString("sku"), rs.getInt("quantity"),
                rs.getBigDecimal("total"), rs.getTimestamp("created_at").toInstant()))
            .optional();
    }
}
