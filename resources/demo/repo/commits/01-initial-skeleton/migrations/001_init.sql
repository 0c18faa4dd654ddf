create table if not exists products (
  sku text primary key,
  name text not null,
  price integer not null check (price >= 0)
);

create table if not exists carts (
  id text primary key,
  items jsonb not null default '[]'
);

create table if not exists orders (
  id serial primary key,
  cart_id text not null unique,
  total integer not null,
  created_at timestamptz not null default now()
);
