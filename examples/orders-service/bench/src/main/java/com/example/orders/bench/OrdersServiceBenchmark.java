package com.example.orders.bench;

import com.example.orders.OrdersApplication;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import serverbench.benchmarks.EmbeddedPostgres;
import serverbench.benchmarks.HttpBenchmark;
import serverbench.benchmarks.ServerApplication;
import serverbench.client.Expect;
import serverbench.client.Method;
import serverbench.client.Request;

/**
 * The orders service under load: its own application (its scan, its application.properties, its schema.sql) on a
 * PostgreSQL of its own per trial, on Tomcat and Jetty (a servlet application: -p server=netty is refused).
 * Run: java -jar bench/target/benchmarks.jar OrdersServiceBenchmark -p server=tomcat,jetty
 */
@State(Scope.Benchmark)
@ServerApplication(OrdersApplication.class)
@EmbeddedPostgres
public class OrdersServiceBenchmark extends HttpBenchmark {

    @Override
    public Request request(String variant) {
        return newOrder();
    }

    /** POST /orders with a new order each time, and the answer's fields it must carry. */
    static Request newOrder() {
        return Request.builder(Method.POST, "/orders")
            .bodyTemplate("{\"sku\":\"SKU-{{seq}}\",\"quantity\":2}")
            .expect(Expect.status(201).contentType(Request.JSON)
                .json("/id", Expect.integer())
                .json("/sku", Expect.matches("SKU-\\d+"))
                .json("/quantity", Expect.value(2))
                .json("/total", Expect.number())
                .json("/createdAt", Expect.matches("\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z")))
            .build();
    }

    @Benchmark
    public void createOrder() {
        call();
    }
}
