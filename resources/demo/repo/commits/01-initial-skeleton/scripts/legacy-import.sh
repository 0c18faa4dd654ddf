#!/usr/bin/env bash
# One-off import of the 2019 catalogue export (products.csv) into the products table.
set -euo pipefail
CSV="${1:-legacy/products.csv}"
psql "${DATABASE_URL:-postgres://localhost:5432/acme_dev}" \
  -c "\copy products (sku, name, price) from '${CSV}' with (format csv, header true)"
echo "imported ${CSV}"
