package com.example.orders.bench;

import com.example.orders.OrderController;
import com.example.orders.OrderRepository;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import serverbench.benchmarks.EmbeddedPostgres;
import serverbench.benchmarks.HttpBenchmark;
import serverbench.benchmarks.ServerEndpoints;
import serverbench.client.Request;

/**
 * The service's controller and repository alone, in the harness's own server of each stack, on a PostgreSQL of their
 * own (a DataSource and JdbcClient from the service's JDBC starter, its schema.sql run): beside OrdersServiceBenchmark,
 * the difference is what the rest of the application (its filters, Actuator) costs a request. JDBC blocks, so the
 * endpoints are declared for the servlet stacks (webType): Netty's event loop is not where they would run.
 * Run: java -jar bench/target/benchmarks.jar OrderControllerBenchmark -p server=tomcat,jetty
 */
@State(Scope.Benchmark)
@ServerEndpoints(value = {OrderController.class, OrderRepository.class}, webType = "servlet")
@EmbeddedPostgres
public class OrderControllerBenchmark extends HttpBenchmark {

    @Override
    public Request request(String variant) {
        return OrdersServiceBenchmark.newOrder();
    }

    @Benchmark
    public void createOrder() {
        call();
    }
}
