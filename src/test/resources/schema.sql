-- The table of example.stock.StockController (EmbeddedDatabaseBeansIT): run by the harness before the endpoints start.
create table if not exists stock (
    id  bigserial primary key,
    sku text not null
);
