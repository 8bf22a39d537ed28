package com.example.reactiveorders.bench;

import com.example.reactiveorders.OrderController;
import com.example.reactiveorders.OrderRepository;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import serverbench.benchmarks.EmbeddedPostgres;
import serverbench.benchmarks.HttpBenchmark;
import serverbench.benchmarks.ServerEndpoints;
import serverbench.client.Request;

/**
 * The service's controller and repository alone, in the harness's own WebFlux server, on a PostgreSQL of their own
 * (a ConnectionFactory and DatabaseClient from the service's R2DBC starter, its schema.sql run): beside
 * ReactiveOrdersBenchmark, the difference is what the rest of the application (Actuator) costs a request.
 * Run: java -jar bench/target/benchmarks.jar ReactiveOrderControllerBenchmark
 */
@State(Scope.Benchmark)
@ServerEndpoints(value = {OrderController.class, OrderRepository.class}, webType = "reactive")
@EmbeddedPostgres
public class ReactiveOrderControllerBenchmark extends HttpBenchmark {

    @Override
    public Request request(String variant) {
        return ReactiveOrdersBenchmark.newOrder();
    }

    @Benchmark
    public void createOrder() {
        call();
    }
}
