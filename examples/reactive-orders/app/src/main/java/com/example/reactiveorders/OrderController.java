package com.example.reactiveorders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Mono;

/** POST /orders prices and stores an order, answering it with its generated id and time; GET reads one back. */
@RestController
public class OrderController {
    private final OrderRepository orders;

    public OrderController(OrderRepository orders) {
        this.orders = orders;
    }

    @PostMapping("/orders")
    public Mono<ResponseEntity<Order>> create(@RequestBody NewOrder order) {
        if (order.sku() == null || order.sku().isBlank() || order.quantity() < 1) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "an order needs a sku and a quantity >= 1");
        }
        return orders.insert(order.sku(), order.quantity(), Pricing.total(order.sku(), order.quantity()))
            .map(stored -> ResponseEntity.status(HttpStatus.CREATED).body(stored));
    }

    @GetMapping("/orders/{id}")
    public Mono<Order> find(@PathVariable long id) {
        return orders.find(id).switchIfEmpty(Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND)));
    }
}
