create table if not exists orders (
    id         bigserial primary key,
    sku        text          not null,
    quantity   integer       not null,
    total      numeric(12,2) not null,
    created_at timestamptz   not null default now()
);
