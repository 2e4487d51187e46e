"""The coding-agent memory dev set, part 5: a third batch of implicit updates (three a project) in
phrasings parts 3-4 lack — "going forward", "deprecated in favour of", "we've standardised on",
"decommissioned", "no longer X; Y", a colon-and-arrow changelog line, passive voice — plus one
look-alike a project. Written, labels included, before any run; same format and split.
"""

from __future__ import annotations

from bench_memory_devset_data import M

LEDGER5 = [
    M("pdf-queue", "PDF rendering jobs go to the celery queue named pdf.", 7, []),
    M("pdf-queue2", "Going forward PDF rendering uses the documents queue; the pdf queue is drained.", 33,
      ["which celery queue handles pdf rendering"], implicit="pdf-queue"),
    M("fx-source", "Exchange rates are fetched daily from the ECB feed.", 8, []),
    M("fx-source2", "The ECB feed was deprecated in favour of Open Exchange Rates for FX.", 35,
      ["where do we get currency exchange rates"], implicit="fx-source"),
    M("session-store", "Django sessions are stored in the database.", 5, []),
    M("session-store2", "Sessions are no longer kept in the database; they live in Redis now.", 31,
      ["where are django sessions stored"], implicit="session-store"),
    M("cache-store", "Template fragments are cached in Memcached.", 20,
      ["where are template fragments cached"], distinct="session-store2"),
]

TILEMAP5 = [
    M("tilemap-format", "Tiled .tmx maps are imported with the tiled crate.", 6, []),
    M("tilemap-format2", "We've standardised on LDtk for level design; Tiled import is decommissioned.", 34,
      ["which level design tool do we import maps from"], implicit="tilemap-format"),
    M("log-crate", "Logging in the engine uses the log crate with env_logger.", 4, []),
    M("log-crate2", "Engine logging: log + env_logger -> tracing + tracing-subscriber.", 30,
      ["what logging crates does the engine use"], implicit="log-crate"),
    M("max-map", "Maps are limited to 256x256 chunks.", 9, []),
    M("max-map2", "The map size limit was lifted to 1024x1024 chunks by the streaming loader.", 36,
      ["how large can a map be"], implicit="max-map"),
    M("editor-limit", "Editor brushes are limited to 64x64 tiles.", 22,
      ["how big can an editor brush be"], distinct="max-map2"),
]

PULSE5 = [
    M("ci-provider", "The app's CI runs on CircleCI.", 5, []),
    M("ci-provider2", "App CI was moved off CircleCI; GitHub Actions runs it now.", 32,
      ["which ci service builds the app"], implicit="ci-provider"),
    M("font-app", "The app font is Inter.", 7, []),
    M("font-app2", "The brand refresh swapped Inter for Manrope as the app font.", 36,
      ["what typeface does the app use"], implicit="font-app"),
    M("retry-upload", "Workout uploads are retried 3 times before showing an error.", 9, []),
    M("retry-upload2", "Uploads get 5 retries with backoff these days.", 34,
      ["how many times is a workout upload retried"], implicit="retry-upload"),
    M("retry-login", "Login requests are retried 2 times with backoff.", 25,
      ["how many times is a login request retried"], distinct="retry-upload2"),
]

DATAFORGE5 = [
    M("cert-issuer", "TLS certificates are issued by cert-manager with the letsencrypt-prod issuer.", 6, []),
    M("cert-issuer2", "cert-manager now uses the google-cas issuer instead of letsencrypt-prod.", 33,
      ["which issuer signs our tls certificates"], implicit="cert-issuer"),
    M("dlq-retention", "DLQ topics keep messages for 7 days.", 8, []),
    M("dlq-retention2", "Retention on the .dlq topics is 14 days going forward.", 35,
      ["how long do dead letter topics keep messages"], implicit="dlq-retention"),
    M("ingress", "Public traffic enters through the GKE ingress with a Google-managed certificate.", 5, []),
    M("ingress2", "The GKE ingress was replaced by the Gateway API with an L7 global load balancer.", 30,
      ["how does public traffic reach the services"], implicit="ingress"),
    M("orders-retention", "The orders.order.v2 topic now keeps messages for 30 days.", 37,
      ["how long does the orders topic keep messages"], distinct="dlq-retention2"),
]

FORECAST5 = [
    M("viz", "Dashboards for planners are built in Metabase.", 6, []),
    M("viz2", "Planner dashboards moved from Metabase to Looker Studio.", 33,
      ["what tool hosts the planner dashboards"], implicit="viz"),
    M("lag-features", "Lag features go back 28 days.", 8, []),
    M("lag-features2", "Lags now reach back 56 days after the seasonality study.", 35,
      ["how far back do lag features go"], implicit="lag-features"),
    M("promo-source", "Promotion calendars are exported from the ERP as CSV every Friday.", 9, []),
    M("promo-source2", "Promotions are read straight from the ERP API now, the Friday CSV export is retired.", 36,
      ["how do we get promotion calendars"], implicit="promo-source"),
    M("price-source", "Price lists are now read from the pricing service API.", 38,
      ["where do price lists come from"], distinct="promo-source2"),
]

# part 6 (bench_memory_devset_data6.py) rides on part 5's lists, so the bench's loader is unchanged
from bench_memory_devset_data6 import DATAFORGE6, FORECAST6, LEDGER6, PULSE6, TILEMAP6  # noqa: E402

LEDGER5 += LEDGER6
TILEMAP5 += TILEMAP6
PULSE5 += PULSE6
DATAFORGE5 += DATAFORGE6
FORECAST5 += FORECAST6
