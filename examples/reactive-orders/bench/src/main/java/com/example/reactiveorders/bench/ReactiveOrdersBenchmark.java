package com.example.reactiveorders.bench;

import com.example.reactiveorders.OrdersApplication;
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
 * The reactive orders service under load: its own WebFlux application (its scan, its application.properties, its
 * schema.sql run over R2DBC) on a PostgreSQL of its own per trial (spring.r2dbc.* point at it), on Reactor Netty.
 * webType says reactive: this jar also holds Spring MVC (serverbench's), so Spring cannot tell from the class path.
 * Run: java -jar bench/target/benchmarks.jar ReactiveOrdersBenchmark
 */
@State(Scope.Benchmark)
@ServerApplication(value = OrdersApplication.class, webType = "reactive")
@EmbeddedPostgres
public class ReactiveOrdersBenchmark extends HttpBenchmark {

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
