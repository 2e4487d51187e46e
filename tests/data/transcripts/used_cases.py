"""Hand-labelled cases for the "used" detector (cavemem.memory.capture.feedback.was_used): an
injected memory, the assistant's reply, and whether the reply actually relied on the memory.
Written for cavemem before the detector was measured on them; split by sha256(case id)[0] < 128.
Hard cases on purpose: same topic but another value, a shared number by coincidence, a paraphrase
that uses the memory without its words."""

CASES = [
    # (id, memory, reply, used)
    ("port-used", "The API server now runs on port 8081.", "Start it locally with `uvicorn app.main:app --port 8081` and open /docs.", True),
    ("port-other", "The API server now runs on port 8081.", "Postgres is listening on 5432, so the connection string is fine.", False),
    ("decimal-used", "Money values are always Decimal, never float.", "I stored the refund amount as a Decimal rather than a float, as you prefer.", True),
    ("decimal-unrelated", "Money values are always Decimal, never float.", "Fixed the typo in the README and pushed.", False),
    ("ruff-used", "Always run ruff format before committing.", "Ran `ruff format .` (3 files reformatted) and committed.", True),
    ("ruff-other", "Always run ruff format before committing.", "The commit message now follows the conventional-commits format.", False),
    ("pnpm-used", "We use pnpm, never npm.", "Installed it with `pnpm add zod`.", True),
    ("pnpm-other", "We use pnpm, never npm.", "The package exports a named function, so import it with braces.", False),
    ("host-used", "Staging lives at staging.webshop.dev.", "Deployed; you can check it on https://staging.webshop.dev/checkout.", True),
    ("host-other", "Staging lives at staging.webshop.dev.", "Production traffic is fine; no errors in the last hour.", False),
    ("celery-used", "For the email queue we use Celery with Redis as broker.", "I added a Celery task `send_receipt` with retries; it goes through the Redis broker.", True),
    ("celery-topic", "For the email queue we use Celery with Redis as broker.", "The queue page in the admin now paginates 50 rows at a time.", False),
    ("tf-used", "Terraform is pinned to 1.7.5.", "I set `required_version = \"1.7.5\"` in versions.tf.", True),
    ("tf-number", "Terraform is pinned to 1.7.5.", "Bumped the chart to 1.7.0 and the image tag to 2024.05.", False),
    ("jwt-paraphrase", "Auth uses short-lived JWT access tokens with refresh tokens in an httpOnly cookie.", "The login handler now issues a 15-minute access token and sets the refresh token as an httpOnly cookie.", True),
    ("jwt-other", "Auth uses short-lived JWT access tokens with refresh tokens in an httpOnly cookie.", "Added a spinner to the login button while the request runs.", False),
    ("kebab-used", "Component files are kebab-case, e.g. cart-summary.tsx.", "Created `order-history.tsx` next to `cart-summary.tsx`.", True),
    ("kebab-other", "Component files are kebab-case, e.g. cart-summary.tsx.", "The cart total now includes VAT.", False),
    ("airflow-ui-used", "Airflow UI is at airflow.data.acme.internal.", "The DAG run is visible at airflow.data.acme.internal/dags/etl/grid.", True),
    ("airflow-topic", "Airflow UI is at airflow.data.acme.internal.", "The Airflow DAG now retries twice before alerting.", False),
    ("migrate-used", "Never run migrations automatically on deploy; apply them by hand with make migrate ENV=prod.", "I left the deploy step alone; after it finishes, run `make migrate ENV=prod` yourself.", True),
    ("migrate-other", "Never run migrations automatically on deploy; apply them by hand with make migrate ENV=prod.", "Deploy finished in 2m10s; all pods are healthy.", False),
    ("schedule-used", "We invoice on the 1st of every month at 06:00 UTC.", "The cron line `0 6 1 * *` runs the invoice job at 06:00 UTC on the first.", True),
    ("schedule-number", "We invoice on the 1st of every month at 06:00 UTC.", "The test run took 06:00 minutes on CI; I split it into two jobs.", False),
    ("mkdocs-used", "Preview the docs locally with mkdocs serve -a 127.0.0.1:8008.", "Run `mkdocs serve -a 127.0.0.1:8008` and open http://127.0.0.1:8008.", True),
    ("mkdocs-topic", "Preview the docs locally with mkdocs serve -a 127.0.0.1:8008.", "I added a page about the search syntax to the docs.", False),
    ("goose-used", "Migrations live in db/migrations and goose applies them.", "Added db/migrations/0002_entries.up.sql; apply it with goose up.", True),
    ("goose-other", "Migrations live in db/migrations and goose applies them.", "The entries table already has an index on account_id.", False),
    ("flux-used", "Everything is deployed through flux from main; no kubectl apply by hand.", "I committed the manifest under clusters/home/ so flux picks it up from main instead of applying it by hand.", True),
    ("flux-kubectl", "Everything is deployed through flux from main; no kubectl apply by hand.", "kubectl get pods shows the new pod is Running.", False),
    ("anyhow-used", "anyhow in the binary, thiserror in the library crate.", "The library's errors are a thiserror enum now; main.rs wraps them with anyhow::Context.", True),
    ("anyhow-other", "anyhow in the binary, thiserror in the library crate.", "Renamed the binary to fsweep and updated Cargo.toml.", False),
    ("batch-used", "Keep the effective batch size at 64 for all runs.", "Configured micro-batch 8 with 8 accumulation steps so the effective batch stays 64.", True),
    ("batch-number", "Keep the effective batch size at 64 for all runs.", "The new node has 64 GB of RAM.", False),
    ("python-used", "The project targets Python 3.12.", "I used the 3.12 `type` statement for the alias since we target Python 3.12.", True),
    ("python-other", "The project targets Python 3.12.", "Python tests pass: 214 passed in 9.8s.", False),
    ("coalesce-paraphrase", "Balance sums must be wrapped in COALESCE(SUM(amount), 0) because SUM of no rows is NULL.", "Same pattern as the balances query: an empty account sums to NULL, so I defaulted it to zero in the statement query too.", True),
    ("coalesce-other", "Balance sums must be wrapped in COALESCE(SUM(amount), 0) because SUM of no rows is NULL.", "The statement PDF now shows the account holder's name.", False),
    ("dns-used", "Pi-hole at 192.168.1.53 is the cluster's upstream DNS.", "CoreDNS forwards to 192.168.1.53, so the new record resolves through Pi-hole.", True),
    ("dns-number", "Pi-hole at 192.168.1.53 is the cluster's upstream DNS.", "The router's DHCP range is 192.168.1.100-200.", False),
]
