"""The coding-agent memory dev set, part 6: a fourth batch of implicit updates (eight a project)
and look-alikes (four a project), written so the check split holds more than the 39 update pairs
of parts 1-5 and in wordings the update rule was not written from: a restated value with no
change word ("The nightly export runs at 03:30 UTC."), "X (was Y)", "used to be X", a terse
"key: value" line, a choice between tools ("pnpm" -> "bun"), a renamed thing, a passive voice,
a PR-style note. Look-alikes: the same attribute of another subject (the api's memory limit vs
the worker's), another environment (prod vs staging, iOS vs Android), the same subject with
another attribute. Written, labels included, before any run; the split is the existing hash.
"""

from __future__ import annotations

from bench_memory_devset_data import M

LEDGER6 = [
    M("u6-export-time", "The nightly accounting export to NetSuite runs at 01:00 UTC.", 6, []),
    M("u6-export-time2", "The nightly NetSuite export runs at 03:30 UTC.", 29,
      ["when does the accounting export to netsuite happen"], implicit="u6-export-time"),
    M("u6-pdf-lib", "Credit notes are generated with ReportLab.", 7, []),
    M("u6-pdf-lib2", "Credit notes: generated with WeasyPrint (was ReportLab) so they share the invoice templates.", 31,
      ["what library builds credit note documents"], implicit="u6-pdf-lib"),
    M("u6-conn-age", "Django CONN_MAX_AGE is 60 for the ledger API.", 8, []),
    M("u6-conn-age2", "ledger API: CONN_MAX_AGE = 0, pgbouncer does the pooling.", 33,
      ["how long does django keep database connections open"], implicit="u6-conn-age"),
    M("u6-refund-approval", "Refunds above 500 EUR need a second approver in the backoffice.", 5, []),
    M("u6-refund-approval2", "Second-approver threshold for refunds is 1000 EUR.", 34,
      ["above what amount does a refund need a second approval"], implicit="u6-refund-approval"),
    M("u6-invoice-prefix", "Invoice numbers are prefixed INV- followed by the year.", 9, []),
    M("u6-invoice-prefix2", "Invoice numbers start with LDG-<year>- since the rebrand.", 36,
      ["what prefix do invoice numbers have"], implicit="u6-invoice-prefix"),
    M("u6-coupon-length", "Coupon codes are 8 characters, uppercase letters and digits.", 4, []),
    M("u6-coupon-length2", "Coupon codes are 12 characters long so they cannot be guessed.", 30,
      ["how long is a coupon code"], implicit="u6-coupon-length"),
    M("u6-sentry-rate", "Sentry traces_sample_rate is 0.2 for the ledger API.", 10, []),
    M("u6-sentry-rate2", "traces_sample_rate for ledger API dropped to 0.05 to stay inside the Sentry quota.", 37,
      ["what fraction of ledger api requests are traced in sentry"], implicit="u6-sentry-rate"),
    M("u6-statement-day", "Monthly account statements are emailed on the 1st of the month.", 3, []),
    M("u6-statement-day2", "Statements go out on the 3rd of each month so late card settlements are included.", 32,
      ["on which day are monthly statements sent"], implicit="u6-statement-day"),
    # look-alikes
    M("u6-lock-invoice", "Invoice rows are locked with select_for_update while an invoice is finalised.", 12,
      ["how do we lock invoices during finalisation"]),
    M("u6-lock-payout", "Payout rows are locked with a Postgres advisory lock while a payout settles.", 27,
      ["how are payouts locked during settlement"], distinct="u6-lock-invoice"),
    M("u6-api-timeout", "Requests to the Stripe API time out after 10 seconds.", 11,
      ["how long before a stripe api call times out"]),
    M("u6-webhook-timeout", "Our webhook endpoint must answer Stripe within 20 seconds or the event is retried.", 28,
      ["how quickly must the webhook endpoint respond to stripe"], distinct="u6-api-timeout"),
]

TILEMAP6 = [
    M("u6-water-anim", "Water tile animation advances a frame every 250 ms.", 5, []),
    M("u6-water-anim2", "Water tiles step their animation every 150 ms since the art pass.", 30,
      ["how fast do water tiles animate"], implicit="u6-water-anim"),
    M("u6-tileset-dir", "Tileset PNGs live in assets/tilesets/.", 7, []),
    M("u6-tileset-dir2", "Tileset images are under assets/art/tiles/ after the asset reorg.", 33,
      ["where are the tileset images kept"], implicit="u6-tileset-dir"),
    M("u6-max-entities", "The ECS is sized for 50k entities per world.", 6, []),
    M("u6-max-entities2", "Worlds hold up to 200k entities after the archetype storage change.", 35,
      ["how many entities can a world hold"], implicit="u6-max-entities"),
    M("u6-wasm-size", "The web build's wasm is limited to 8 MB by the CI size check.", 8, []),
    M("u6-wasm-size2", "CI fails the web build if the wasm exceeds 12 MB.", 31,
      ["how big may the web wasm binary be"], implicit="u6-wasm-size"),
    M("u6-save-dir", "Save games are written to ~/.local/share/tilemap/saves.", 9, []),
    M("u6-save-dir2", "Saves go to the platform data dir from the directories crate, e.g. ~/.local/share/Tilemap/profiles.", 36,
      ["where does the game write save files"], implicit="u6-save-dir"),
    M("u6-screenshot", "Screenshots are saved as PNG.", 4, []),
    M("u6-screenshot2", "F12 screenshots are written as QOI files, PNG encoding stalled the frame.", 29,
      ["what format are screenshots saved in"], implicit="u6-screenshot"),
    M("u6-minimap", "The minimap redraws every 10 frames.", 10, []),
    M("u6-minimap2", "The minimap is redrawn every 4 frames.", 38,
      ["how often does the minimap redraw"], implicit="u6-minimap"),
    M("u6-asset-hash", "Asset cache keys use xxhash64.", 11, []),
    M("u6-asset-hash2", "Asset cache keys are blake3 hashes.", 37,
      ["what hash keys the asset cache"], implicit="u6-asset-hash"),
    # look-alikes
    M("u6-path-enemy", "Enemy pathfinding recomputes every 0.5 seconds.", 12,
      ["how often do enemies recompute their path"]),
    M("u6-path-companion", "Companion pathfinding recomputes every 0.2 seconds.", 27,
      ["how often do companions recompute their path"], distinct="u6-path-enemy"),
    M("u6-light-desktop", "Dynamic lights are capped at 64 per scene on desktop.", 13,
      ["how many dynamic lights can a desktop scene have"]),
    M("u6-light-web", "Dynamic lights are capped at 16 per scene in the web build.", 26,
      ["how many dynamic lights does the browser build allow"], distinct="u6-light-desktop"),
]

PULSE6 = [
    M("u6-charts", "Workout charts are drawn with victory-native.", 4, []),
    M("u6-charts2", "Charts in the app use react-native-skia directly; victory-native was dropped for performance.", 30,
      ["what draws the workout charts"], implicit="u6-charts"),
    M("u6-heart-zones", "Heart-rate zones are computed from 220 minus age.", 6, []),
    M("u6-heart-zones2", "Heart-rate zones come from the Karvonen formula using resting heart rate.", 33,
      ["how are heart rate zones calculated"], implicit="u6-heart-zones"),
    M("u6-session-timeout", "The app logs a user out after 30 days of inactivity.", 7, []),
    M("u6-session-timeout2", "Inactive sessions are signed out after 14 days.", 35,
      ["after how long without use is someone logged out of the app"], implicit="u6-session-timeout"),
    M("u6-sync-interval", "Health data syncs to the server every 15 minutes in the background.", 8, []),
    M("u6-sync-interval2", "Background health sync every 30 minutes to save battery.", 31,
      ["how often does health data upload in the background"], implicit="u6-sync-interval"),
    M("u6-splash", "The splash screen stays up for at least 800 ms.", 5, []),
    M("u6-splash2", "Minimum splash screen time: 300 ms, the fonts preload faster now.", 36,
      ["how long is the splash screen shown at least"], implicit="u6-splash"),
    M("u6-api-base", "The mobile client talks to api.pulse.app/v1.", 9, []),
    M("u6-api-base2", "Mobile client base URL is api.pulse.app/v2 starting with build 4.2.", 34,
      ["what api base url does the mobile app call"], implicit="u6-api-base"),
    M("u6-token-ttl", "Access tokens for the app are valid for 60 minutes.", 10, []),
    M("u6-token-ttl2", "Access tokens last 15 minutes, with a refresh token for 30 days.", 38,
      ["how long is an app access token valid"], implicit="u6-token-ttl"),
    M("u6-photos", "Workout photos are uploaded to Cloudinary.", 3, []),
    M("u6-photos2", "Workout photos go to S3 through presigned URLs; nothing is sent to Cloudinary any more.", 32,
      ["where are workout photos uploaded"], implicit="u6-photos"),
    # look-alikes
    M("u6-cache-feed", "The activity feed cache expires after 5 minutes.", 12,
      ["how long is the activity feed cached"]),
    M("u6-cache-profile", "The profile cache expires after 1 hour.", 27,
      ["how long is a user profile cached"], distinct="u6-cache-feed"),
    M("u6-bundle-prod", "The production bundle id is app.pulse.fitness.", 13,
      ["what is the bundle identifier of the production app"]),
    M("u6-bundle-beta", "The beta bundle id is app.pulse.fitness.beta.", 26,
      ["what is the bundle identifier of the beta app"], distinct="u6-bundle-prod"),
]

DATAFORGE6 = [
    M("u6-poll-batch", "The enricher fetches 500 records per Kafka poll.", 4, []),
    M("u6-poll-batch2", "Enricher polls Kafka in batches of 2000 records.", 31,
      ["how many records does the enricher take per poll"], implicit="u6-poll-batch"),
    M("u6-charts-repo", "Helm charts are published to ChartMuseum at charts.dataforge.internal.", 6, []),
    M("u6-charts-repo2", "Helm charts are published as OCI artifacts to europe-docker.pkg.dev/dataforge-prod/charts.", 33,
      ["where are our helm charts published"], implicit="u6-charts-repo"),
    M("u6-hpa", "The ingest deployment autoscales between 3 and 12 replicas.", 7, []),
    M("u6-hpa2", "ingest HPA bounds: min 4, max 20 replicas.", 35,
      ["what are the autoscaling limits of the ingest deployment"], implicit="u6-hpa"),
    M("u6-kafka-client", "Kafka clients are written with sarama.", 8, []),
    M("u6-kafka-client2", "We write Kafka clients with franz-go; sarama is not used in new code and is being removed.", 30,
      ["which go kafka library do we use"], implicit="u6-kafka-client"),
    M("u6-metrics-port", "Every service exposes Prometheus metrics on :9090.", 5, []),
    M("u6-metrics-port2", "Prometheus metrics are scraped from :9102 on every service so they don't clash with the Prometheus server port.", 36,
      ["what port do services expose metrics on"], implicit="u6-metrics-port"),
    M("u6-schema-registry", "Avro schemas for the audit topics are registered in a self-hosted Apicurio registry.", 9, []),
    M("u6-schema-registry2", "Audit topic schemas live in the Buf Schema Registry as protobuf; the Avro ones were converted.", 37,
      ["where are the audit topic schemas registered"], implicit="u6-schema-registry"),
    M("u6-node-pool", "Workloads run on the e2-standard-4 node pool.", 10, []),
    M("u6-node-pool2", "The default node pool is n2d-standard-8 after the capacity review.", 34,
      ["what machine type does the default node pool use"], implicit="u6-node-pool"),
    M("u6-backup", "Postgres backups for dataforge are taken every 6 hours.", 11, []),
    M("u6-backup2", "dataforge Postgres snapshots run hourly with 7 days of point-in-time recovery.", 38,
      ["how often is the dataforge database backed up"], implicit="u6-backup"),
    # look-alikes
    M("u6-ingest-mem", "The ingest pods have a 512Mi memory limit.", 12,
      ["what memory limit do ingest pods have"]),
    M("u6-router-mem", "The router pods have a 1Gi memory limit.", 27,
      ["what memory limit do router pods have"], distinct="u6-ingest-mem"),
    M("u6-bucket-prod", "Raw events land in gs://df-raw-prod.", 13,
      ["which bucket holds raw events in production"]),
    M("u6-bucket-stg", "Raw events land in gs://df-raw-staging in staging.", 26,
      ["which bucket holds raw events in staging"], distinct="u6-bucket-prod"),
]

FORECAST6 = [
    M("u6-sku-min", "SKUs with fewer than 20 sales a year get the fallback model.", 5, []),
    M("u6-sku-min2", "The fallback model covers SKUs under 50 yearly sales.", 32,
      ["which skus are forecast by the fallback model"], implicit="u6-sku-min"),
    M("u6-delivery", "Forecasts are delivered to the planning tool as parquet files in S3.", 6, []),
    M("u6-delivery2", "Forecast delivery to the planning tool is a BigQuery table, forecast.delivered_v3.", 34,
      ["how do forecasts reach the planning tool"], implicit="u6-delivery"),
    M("u6-cutoff", "Sales data is cut off at 23:00 local time for the daily run.", 7, []),
    M("u6-cutoff2", "The daily run's sales cutoff is 00:00 UTC.", 31,
      ["what time is sales data cut off for the daily run"], implicit="u6-cutoff"),
    M("u6-notebooks", "Exploration notebooks run on a shared JupyterHub.", 8, []),
    M("u6-notebooks2", "Exploration notebooks run in Hex; the JupyterHub was shut down.", 36,
      ["where do we run exploration notebooks"], implicit="u6-notebooks"),
    M("u6-pred-logs", "Prediction logs are kept for 90 days.", 9, []),
    M("u6-pred-logs2", "Prediction logs are retained for 1 year for the audit.", 35,
      ["how long are prediction logs kept"], implicit="u6-pred-logs"),
    M("u6-train-mem", "Training jobs request 16 GB of memory.", 10, []),
    M("u6-train-mem2", "Training pods ask for 48 GB RAM after adding the store-level features.", 37,
      ["how much memory do training jobs get"], implicit="u6-train-mem"),
    M("u6-feature-store", "Features are served from Feast with a Redis online store.", 4, []),
    M("u6-feature-store2", "Feast online store is DynamoDB.", 33,
      ["what backs the online feature store"], implicit="u6-feature-store"),
    M("u6-promotion", "A new model goes live after the planning lead signs off.", 11, []),
    M("u6-promotion2", "Model promotions need sign-off from two ML engineers in the PR.", 38,
      ["who has to approve promoting a new model"], implicit="u6-promotion"),
    # look-alikes
    M("u6-batch-train", "Training uses a batch size of 512.", 12,
      ["what batch size is used for training"]),
    M("u6-batch-infer", "Batch inference scores 4096 rows per batch.", 27,
      ["how many rows per batch does inference score"], distinct="u6-batch-train"),
    M("u6-store-eu", "EU stores are forecast from the eu-west-1 account.", 13,
      ["which aws account forecasts eu stores"]),
    M("u6-store-us", "US stores are forecast from the us-east-1 account.", 26,
      ["which aws account forecasts us stores"], distinct="u6-store-eu"),
]

# part 7 (bench_memory_devset_data7.py) rides on part 6's lists, so the bench's loader is unchanged
from bench_memory_devset_data7 import DATAFORGE7, FORECAST7, LEDGER7, PULSE7, TILEMAP7  # noqa: E402

LEDGER6 += LEDGER7
TILEMAP6 += TILEMAP7
PULSE6 += PULSE7
DATAFORGE6 += DATAFORGE7
FORECAST6 += FORECAST7
