"""The coding-agent memory dev set, part 4: a second batch of implicit updates (four a project) in
shapes part 3 has few of — a tool swapped with no number ("OpenVPN was replaced by Tailscale"), a
value written as an arrow ("task_time_limit: 300 -> 600"), an address or a file extension changed,
"as of April …" — and one hard negative a project: a newer change about a neighbouring subject
("dunning emails now come from …" beside the invoice sender). Written, labels included, before any
run; same format and split as parts 1-3.
"""

from __future__ import annotations

from bench_memory_devset_data import M

LEDGER4 = [
    M("invoice-from", "Invoice emails are sent from billing@acme.io.", 6, []),
    M("invoice-from2", "Invoice emails now come from invoices@acme.io instead of billing@acme.io.", 32,
      ["what sender address do invoice emails use"], implicit="invoice-from"),
    M("budget-review", "Error budgets are reviewed in the Thursday ops meeting.", 9, []),
    M("budget-review2", "As of April the error budget review happens on Mondays.", 34,
      ["which day is the error budget reviewed"], implicit="budget-review"),
    M("vpn", "The admin VPN is OpenVPN on vpn.acme.io.", 4, []),
    M("vpn2", "OpenVPN was replaced by Tailscale for admin access.", 30,
      ["what vpn do we use to reach the admin pages"], implicit="vpn"),
    M("task-limit", "Celery task time limit is 300 seconds.", 11, []),
    M("task-limit2", "task_time_limit: 300 -> 600 after the PDF batch timeouts.", 36,
      ["what's the celery task time limit"], implicit="task-limit"),
    M("dunning-from", "Dunning emails now come from dunning@acme.io.", 38,
      ["which address sends dunning emails"], distinct="invoice-from2"),
]

TILEMAP4 = [
    M("bench-runner", "Benchmarks in CI run on the ubuntu-22.04 runner.", 8, []),
    M("bench-runner2", "CI benchmarks moved to ubuntu-24.04 runners.", 31,
      ["which runner image runs the CI benchmarks"], implicit="bench-runner"),
    M("level-ext", "Level files use the .tmap extension.", 5, []),
    M("level-ext2", "Level files are saved as .tlvl now; .tmap is read for import only.", 33,
      ["what file extension do levels use"], implicit="level-ext"),
    M("atlas-packer", "Texture atlases are packed with guillotiere.", 7, []),
    M("atlas-packer2", "We switched atlas packing from guillotiere to etagere.", 29,
      ["which crate packs the texture atlas"], implicit="atlas-packer"),
    M("grid-snap", "The editor grid snaps to 8 px.", 10, []),
    M("grid-snap2", "Grid snap is 4 px as of the last release.", 37,
      ["what does the editor grid snap to"], implicit="grid-snap"),
    M("prefab-ext", "Prefab files are saved as .tpfb now.", 38,
      ["what extension do prefab files use"], distinct="level-ext2"),
]

PULSE4 = [
    M("crash-free", "Crash-free target is 99.5% of sessions.", 6, []),
    M("crash-free2", "We raised the crash-free sessions target to 99.8%.", 33,
      ["what crash free sessions target do we have"], implicit="crash-free"),
    M("flush", "Analytics events are batched and flushed every 30 seconds.", 8, []),
    M("flush2", "PostHog flush interval is now 10 s.", 35,
      ["how often are analytics events flushed"], implicit="flush"),
    M("onboarding", "Onboarding has 5 screens.", 5, []),
    M("onboarding2", "Onboarding was cut to 3 screens after the A/B test.", 30,
      ["how many onboarding screens are there"], implicit="onboarding"),
    M("support-email", "The support email shown in the app is help@pulsefit.io.", 9, []),
    M("support-email2", "In-app support address changed to support@pulsefit.io.", 36,
      ["which support email does the app show"], implicit="support-email"),
    M("contact-email", "The marketing site's contact address changed to hello@pulsefit.io.", 38,
      ["what is the marketing site contact email"], distinct="support-email2"),
]

DATAFORGE4 = [
    M("argo-sync", "Argo CD syncs every 3 minutes.", 6, []),
    M("argo-sync2", "Argo CD reconciliation interval lowered to 1 minute.", 32,
      ["how often does argo cd sync"], implicit="argo-sync"),
    M("consumer-group", "The enricher reads orders.order.v2 with consumer group enricher-v1.", 8, []),
    M("consumer-group2", "Enricher consumer group renamed to enricher-v2 after the offset reset.", 34,
      ["what consumer group does the enricher use"], implicit="consumer-group"),
    M("registry", "Container images are pushed to gcr.io/df-prod-381.", 5, []),
    M("registry2", "Images are pushed to europe-west4-docker.pkg.dev/df-prod-381/services now; gcr.io is deprecated.", 30,
      ["where are container images pushed"], implicit="registry"),
    M("msg-size", "Max message size on Kafka topics is 1 MB.", 10, []),
    M("msg-size2", "max.message.bytes raised to 4 MB for the enrichment payloads.", 37,
      ["what's the max kafka message size"], implicit="msg-size"),
    M("relay-group", "The relay consumer group was renamed to relay-v3.", 38,
      ["what consumer group does the relay use"], distinct="consumer-group2"),
]

FORECAST4 = [
    M("dagster-ver", "Dagster runs on version 1.6.", 4, []),
    M("dagster-ver2", "Upgraded Dagster to 1.8.", 31,
      ["which dagster version are we on"], implicit="dagster-ver"),
    M("backtest-machine", "Backtests run on the n2-highmem-16 machine type.", 7, []),
    M("backtest-machine2", "Backtest jobs use c3-standard-22 machines now.", 33,
      ["what machine type do backtests run on"], implicit="backtest-machine"),
    M("feature-refresh", "Feature store tables are refreshed at 02:00 UTC.", 9, []),
    M("feature-refresh2", "Feature tables refresh at 00:30 UTC from now on.", 35,
      ["when do feature tables refresh"], implicit="feature-refresh"),
    M("eval-window", "Evaluation uses 52 weeks of holdout history.", 10, []),
    M("eval-window2", "The evaluation window was shortened to 26 weeks.", 36,
      ["how many weeks does evaluation cover"], implicit="eval-window"),
    M("pricing-refresh", "The pricing feature tables now refresh at 04:00 UTC.", 38,
      ["when do pricing feature tables refresh"], distinct="feature-refresh2"),
]
