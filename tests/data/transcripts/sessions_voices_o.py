"""Voices set O (see build_voices.py), written by capture helper H8 on 2026-12-04 after the voices sets A-N were
tuned on, in the plainest voice of all — everyday Claude Code work in ordinary English: a Rails developer, a data
engineer on Databricks, a Home Assistant tinkerer and a TypeScript monorepo maintainer, two sessions each, the
second changing what the first stated (versions bumped, a host moved, a schedule changed, a tool replaced).
Assistant-side summaries of a fix ("Root cause: ... Fixed by ..."), decisions given as answers, secrets in prose,
and noise: greetings, thanks, hedges, plans for later, questions, remarks on tool output. Names chosen and
labels written with the conversations, before any capture run; split by name hash as every voices set."""

RSPEC_OUT = ("Randomized with seed 41234\n..........F.....\n\nFailures:\n\n  1) OrdersController GET index responds within budget\n"
             "     Failure/Error: expect(duration).to be < 0.5\n       expected: < 0.5\n            got: 3.82\n"
             "     # ./spec/requests/orders_spec.rb:18\n\nFinished in 6.41 seconds\n16 examples, 1 failure\n")
BULLET_LOG = ("user: web\nGET /orders\nUSE eager loading detected\n  Order => [:line_items]\n  Add to your query: .includes([:line_items])\n"
              "Call stack\n  /app/views/orders/index.html.erb:12\n")
KAMAL_OUT = ("INFO [a1b2c3d4] Running docker login registry.example.com on 5.161.22.10\n  INFO [a1b2c3d4] Finished in 1.204 seconds with exit status 0\n"
             "Acquiring the deploy lock...\n  INFO Container quayside-web-1 is healthy\nReleasing the deploy lock...\n  Finished all in 94.2 seconds\n")
GEMFILE_DIFF = "--- a/Gemfile\n+++ b/Gemfile\n@@\n-gem \"rails\", \"~> 7.1.3\"\n+gem \"rails\", \"~> 7.2.1\"\n-gem \"sidekiq\", \"~> 7.2\"\n+gem \"solid_queue\"\n"
SPARK_PLAN = ("== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=false\n+- SortMergeJoin [user_id#12L], [user_id#88L], Inner\n"
              "   :- Sort [user_id#12L ASC NULLS FIRST], false, 0\n   :  +- Exchange hashpartitioning(user_id#12L, 200)\n"
              "   +- FileScan delta otter_prod.events[user_id#88L,event_date#90] PartitionFilters: []\n")
DBX_JOB = ('{\n  "job_id": 884213,\n  "settings": {\n    "name": "otter-sessionize",\n    "schedule": {"quartz_cron_expression": "0 0 * * * ?"},\n'
           '    "job_clusters": [{"new_cluster": {"spark_version": "14.3.x-scala2.12", "node_type_id": "i3.xlarge"}}]\n  }\n}\n')
SKEW_LOG = ("Stage 14 (sortMergeJoin): 199/200 tasks finished, 1 running for 41 min\nTask 187: shuffle read 38.2 GiB, records 812,004,113\n"
            "Median task: shuffle read 212.4 MiB\n")
HA_LOG = ("2026-11-30 19:02:11.204 INFO (MainThread) [homeassistant.components.automation.hallway_light] Hallway light: Running automation actions\n"
          "2026-11-30 19:02:11.209 INFO (MainThread) [homeassistant.components.automation.hallway_light] Hallway light: Running automation actions\n"
          "2026-11-30 19:02:11.533 WARNING (MainThread) [homeassistant.components.automation.hallway_light] Hallway light: Already running\n")
Z2M_LOG = ("[2026-12-01 08:11:40] info: \tz2m: Logging to console, file (filename: log.log)\n[2026-12-01 08:11:41] info: \tz2m: Starting Zigbee2MQTT version 1.41.0\n"
           "[2026-12-01 08:11:43] info: \tz2m: Connecting to MQTT server at mqtt://192.168.1.20:1883\n[2026-12-01 08:11:43] info: \tz2m: Connected to MQTT server\n")
TURBO_OUT = ("• Packages in scope: @lattice/api, @lattice/ui, @lattice/web\n• Running test in 3 packages\n"
             "@lattice/ui:test: cache hit, replaying logs 8f1c2d\n@lattice/api:test:  Test Files  12 passed (12)\n"
             "@lattice/api:test:       Tests  148 passed (148)\n Tasks:    3 successful, 3 total\nCached:    1 cached, 3 total\n  Time:    14.211s\n")
BIOME_OUT = ("Checked 412 files in 96ms. No fixes applied.\nFound 3 errors.\n"
             "packages/ui/src/Button.tsx:1:1 lint/style/noDefaultExport  Avoid default exports.\n")
BUILDKITE_YML = "steps:\n  - label: \":pnpm: install\"\n    command: pnpm install --frozen-lockfile\n  - label: \":vitest: test\"\n    command: pnpm turbo test\n"

VOICES_O = [
    {
        "name": "v-quayside-01-orders", "order": 439, "project": "quayside", "cwd": "/home/maya/work/quayside",
        "session": "e2f3a4b5-0139-4ddd-8eee-000000000439", "start": "2026-11-16T09:10:00",
        "turns": [
            ("u", "hi! quick context first: quayside is our ferry booking app, Rails 7.1 on Ruby 3.2 with Postgres 16. background jobs run on Sidekiq"),
            ("a", "Thanks. What are we looking at today?"),
            ("u", "the orders index page is super slow in staging, like 4 seconds. can you take a look?"),
            ("a", "", {"tools": [("Bash", {"command": "bundle exec rspec spec/requests/orders_spec.rb"}, RSPEC_OUT),
                             ("Bash", {"command": "tail -n 20 log/bullet.log"}, BULLET_LOG)]}),
            ("a", "", {"thinking": "Bullet flags an N+1 on line_items from the index view; the controller loads Order.all without includes."}),
            ("a", "Fixed the slow orders index. Root cause: an N+1 query, the view loaded line_items for every order one by one. "
                  "Fix: `Order.includes(:line_items)` in `OrdersController#index`; the spec now runs in 0.31 s."),
            ("u", "nice, thanks"),
            ("u", "btw we write tests in RSpec, please never add minitest files"),
            ("a", "Understood, RSpec only."),
            ("u", "the local database runs on port 5433 because I have another postgres on 5432"),
            ("a", "I'll keep `DATABASE_URL` pointing at localhost:5433 in `.env.development`."),
            ("a", "", {"tools": [("Bash", {"command": "bin/kamal deploy -d staging"}, KAMAL_OUT)]}),
            ("a", "Staging deploy finished in 94 s and the container is healthy."),
            ("u", "we deploy with Kamal to a Hetzner box, staging and prod are separate servers"),
            ("u", "hmm I wonder if we should cache the whole index page too, let's think about it another day"),
            ("u", "ok that's it for now, cheers"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["rails 7.1", "ruby 3.2"]},
            {"id": "jobs", "kind": "fact", "must": ["sidekiq"]},
            {"id": "nplus1", "kind": "bugfix", "must": ["n+1", "includes(:line_items)"]},
            {"id": "rspec", "kind": "preference", "must": ["rspec", "never add minitest"]},
            {"id": "port", "kind": "fact", "must": ["5433"]},
            {"id": "deploy", "kind": "fact", "must": ["kamal", "hetzner"]},
        ],
        "noise": ["quick context first", "can you take a look", "nice, thanks", "cache the whole index page", "that's it for now"],
        "secrets": [],
    },
    {
        "name": "v-quayside-02-upgrade", "order": 440, "project": "quayside", "cwd": "/home/maya/work/quayside",
        "session": "e2f3a4b5-0140-4ddd-8eee-000000000440", "start": "2026-11-28T13:45:00",
        "turns": [
            ("u", "morning. so a few things changed since last time"),
            ("u", "we upgraded to Rails 7.2 last week, and Ruby is 3.3 now"),
            ("a", "", {"tools": [("Bash", {"command": "git diff HEAD~3 -- Gemfile"}, GEMFILE_DIFF)]}),
            ("a", "I see the Gemfile moved to Rails 7.2.1 and dropped Sidekiq for `solid_queue`."),
            ("u", "right, we replaced Sidekiq with Solid Queue, one less Redis to babysit"),
            ("a", "Should the recurring jobs move to `config/recurring.yml` then?"),
            ("u", "yes, put them in recurring.yml"),
            ("u", "the staging server password is Qy7!harbour-Stg-2026 if you need to ssh in, don't commit it anywhere"),
            ("a", "I'll use it only in this shell session and won't write it to any file."),
            ("u", "not sure the recurring jobs will all survive the move but we'll see"),
            ("u", "thanks, that's all"),
        ],
        "gold": [
            {"id": "rails", "kind": "fact", "must": ["rails 7.2"]},
            {"id": "ruby", "kind": "fact", "must": ["ruby is 3.3"]},
            {"id": "queue", "kind": "decision", "must": ["solid queue"]},
            {"id": "recurring", "kind": "decision", "must": ["recurring.yml"]},
        ],
        "noise": ["a few things changed since last time", "not sure the recurring jobs", "that's all"],
        "secrets": ["Qy7!harbour-Stg-2026"],
        "updates": [["v-quayside-01-orders:stack", "v-quayside-02-upgrade:rails"], ["v-quayside-01-orders:jobs", "v-quayside-02-upgrade:queue"]],
    },
    {
        "name": "v-otterpipe-01-sessions", "order": 441, "project": "otterpipe", "cwd": "/home/rahul/repos/otterpipe",
        "session": "e2f3a4b5-0141-4ddd-8eee-000000000441", "start": "2026-11-17T10:00:00",
        "turns": [
            ("u", "Hey. otterpipe is the sessionization job for our clickstream, it runs on Databricks and writes Delta tables."),
            ("u", "Everything lives in the otter_prod catalog; the cluster runtime is 14.3 LTS."),
            ("a", "", {"tools": [("Bash", {"command": "databricks jobs get 884213"}, DBX_JOB)]}),
            ("a", "The job `otter-sessionize` runs hourly on an i3.xlarge job cluster."),
            ("u", "Yes, it runs every hour on the hour. The last few runs took forever though, can you see why?"),
            ("a", "", {"tools": [("Bash", {"command": "databricks runs get-output --run-id 5521 | grep -A3 Stage"}, SKEW_LOG),
                             ("Bash", {"command": "python scripts/explain.py sessionize"}, SPARK_PLAN)]}),
            ("a", "Found the slow stage. Root cause: skew on the user_id join — one bot user has 812M events and a single task "
                  "read 38 GiB. Fix: filter known bot user_ids before the join and enable AQE skew join handling "
                  "(`spark.sql.adaptive.skewJoin.enabled=true`)."),
            ("u", "Good catch. Let's go with partitioning the events table by event_date too, the scans have no partition filter today."),
            ("a", "I'll add `PARTITIONED BY (event_date)` and a backfill notebook."),
            ("u", "One rule for this repo: no pandas UDFs in the production jobs, they've burned us before."),
            ("a", "Noted — native Spark functions only in `jobs/`."),
            ("u", "Interesting that the plan still uses 200 shuffle partitions, whatever."),
            ("u", "Ok, thanks, I'll check the next run."),
        ],
        "gold": [
            {"id": "platform", "kind": "fact", "must": ["databricks", "delta"]},
            {"id": "catalog", "kind": "fact", "must": ["otter_prod"]},
            {"id": "runtime", "kind": "fact", "must": ["14.3 lts"]},
            {"id": "schedule", "kind": "fact", "must": ["every hour"]},
            {"id": "skew", "kind": "bugfix", "must": ["skew", "bot user_ids"]},
            {"id": "partition", "kind": "decision", "must": ["partitioning", "event_date"]},
            {"id": "udf", "kind": "preference", "must": ["no pandas udfs"]},
        ],
        "noise": ["took forever though", "Good catch", "200 shuffle partitions", "I'll check the next run"],
        "secrets": [],
    },
    {
        "name": "v-otterpipe-02-cadence", "order": 442, "project": "otterpipe", "cwd": "/home/rahul/repos/otterpipe",
        "session": "e2f3a4b5-0142-4ddd-8eee-000000000442", "start": "2026-12-01T15:20:00",
        "turns": [
            ("u", "Hi again. Product wants fresher sessions, so the job runs every 30 minutes from now on."),
            ("a", "I'll change the quartz expression to `0 0/30 * * * ?`."),
            ("u", "And we moved the cluster to runtime 15.4 LTS yesterday, the photon one."),
            ("a", "Updated `spark_version` to 15.4.x-photon-scala2.12 in the job JSON."),
            ("u", "Here's a workspace token for testing: dapi4f9c2e1b7a6d5c3e8f0a1b2c3d4e5f6a7, it expires friday."),
            ("a", "I'll export it as `DATABRICKS_TOKEN` for this shell only."),
            ("u", "Maybe we look at Liquid Clustering at some point, no rush."),
            ("u", "Cool, thanks!"),
        ],
        "gold": [
            {"id": "schedule", "kind": "fact", "must": ["every 30 minutes"]},
            {"id": "runtime", "kind": "fact", "must": ["15.4 lts"]},
        ],
        "noise": ["Maybe we look at Liquid Clustering", "Cool, thanks"],
        "secrets": ["dapi4f9c2e1b7a6d5c3e8f0a1b2c3d4e5f6a7"],
        "updates": [["v-otterpipe-01-sessions:schedule", "v-otterpipe-02-cadence:schedule"],
                    ["v-otterpipe-01-sessions:runtime", "v-otterpipe-02-cadence:runtime"]],
    },
    {
        "name": "v-hearth-01-automations", "order": 443, "project": "hearth-ha", "cwd": "/home/tom/hearth-ha",
        "session": "e2f3a4b5-0143-4ddd-8eee-000000000443", "start": "2026-11-30T18:55:00",
        "turns": [
            ("u", "evening! this repo is my home assistant config. HA runs on a raspberry pi 4 with an SSD, zigbee goes through zigbee2mqtt"),
            ("u", "the mqtt broker is mosquitto at 192.168.1.20"),
            ("u", "problem: the hallway light automation fires twice every time someone walks past, super annoying"),
            ("a", "", {"tools": [("Bash", {"command": "grep hallway_light home-assistant.log | tail -n 3"}, HA_LOG),
                             ("Read", {"file_path": "/home/tom/hearth-ha/automations/hallway.yaml"},
                              "- id: hallway_light\n  trigger:\n    - platform: state\n      entity_id: binary_sensor.hallway_motion\n"
                              "      to: 'on'\n    - platform: device\n      device_id: 3f1a\n      type: motion\n")]}),
            ("a", "Fixed the double firing. Cause: the automation had two triggers for the same motion sensor, a state trigger and a device "
                  "trigger. Fix: removed the device trigger and set `mode: single`."),
            ("u", "oh wow, thanks"),
            ("u", "I keep all automations in YAML files under automations/, please don't suggest the UI editor"),
            ("a", "Got it, YAML only."),
            ("a", "", {"tools": [("Bash", {"command": "docker logs zigbee2mqtt --tail 4"}, Z2M_LOG)]}),
            ("u", "huh, z2m is on 1.41 already, didn't know"),
            ("u", "maybe I'll add presence detection next weekend"),
        ],
        "gold": [
            {"id": "host", "kind": "fact", "must": ["raspberry pi 4"]},
            {"id": "broker", "kind": "fact", "must": ["mosquitto", "192.168.1.20"]},
            {"id": "double", "kind": "bugfix", "must": ["two triggers", "removed the device trigger"]},
            {"id": "yaml", "kind": "preference", "must": ["yaml", "ui editor"]},
        ],
        "noise": ["super annoying", "oh wow", "didn't know", "presence detection next weekend"],
        "secrets": [],
    },
    {
        "name": "v-hearth-02-nuc", "order": 444, "project": "hearth-ha", "cwd": "/home/tom/hearth-ha",
        "session": "e2f3a4b5-0144-4ddd-8eee-000000000444", "start": "2026-12-03T20:10:00",
        "turns": [
            ("u", "so the pi died :( home assistant runs on an intel NUC now"),
            ("u", "and mosquitto moved with it, the broker is at 192.168.1.30 now"),
            ("a", "I'll update `mqtt.server` in the zigbee2mqtt config to mqtt://192.168.1.30:1883."),
            ("u", "mqtt user is hearth and password is p1ne-Cone-77, put it in secrets.yaml which is gitignored"),
            ("a", "Added `mqtt_password: !secret` references; the value only goes into `secrets.yaml`."),
            ("u", "what a weekend honestly"),
        ],
        "gold": [
            {"id": "host", "kind": "fact", "must": ["intel nuc"]},
            {"id": "broker", "kind": "fact", "must": ["192.168.1.30"]},
        ],
        "noise": ["the pi died", "what a weekend"],
        "secrets": ["p1ne-Cone-77"],
        "updates": [["v-hearth-01-automations:host", "v-hearth-02-nuc:host"],
                    ["v-hearth-01-automations:broker", "v-hearth-02-nuc:broker"]],
    },
    {
        "name": "v-lattice-01-monorepo", "order": 445, "project": "lattice", "cwd": "/Users/sam/code/lattice",
        "session": "e2f3a4b5-0145-4ddd-8eee-000000000445", "start": "2026-11-19T11:30:00",
        "turns": [
            ("u", "Lattice is a TypeScript monorepo: pnpm workspaces plus Turborepo, Node 20, tests with Vitest."),
            ("a", "", {"tools": [("Bash", {"command": "pnpm turbo test"}, TURBO_OUT)]}),
            ("a", "All 148 API tests pass; the UI package came from cache."),
            ("u", "We're replacing ESLint and Prettier with Biome, can you set that up?"),
            ("a", "", {"tools": [("Bash", {"command": "pnpm biome check ."}, BIOME_OUT)]}),
            ("a", "Biome is configured in `biome.json`; it reports three default exports in packages/ui."),
            ("u", "Convention here: named exports only, no default exports anywhere."),
            ("a", "I'll convert the three components to named exports."),
            ("u", "CI is GitHub Actions for now."),
            ("u", "kinda surprised the cache hit rate is that low"),
            ("u", "anyway, good enough for today"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["pnpm", "turborepo"]},
            {"id": "node", "kind": "fact", "must": ["node 20"]},
            {"id": "biome", "kind": "decision", "must": ["biome", "eslint"]},
            {"id": "exports", "kind": "preference", "must": ["named exports only"]},
            {"id": "ci", "kind": "fact", "must": ["github actions"]},
        ],
        "noise": ["kinda surprised", "good enough for today"],
        "secrets": [],
    },
    {
        "name": "v-lattice-02-buildkite", "order": 446, "project": "lattice", "cwd": "/Users/sam/code/lattice",
        "session": "e2f3a4b5-0146-4ddd-8eee-000000000446", "start": "2026-12-02T09:00:00",
        "turns": [
            ("u", "Two updates: we're on Node 22 since Monday, and CI moved to Buildkite."),
            ("a", "", {"tools": [("Read", {"file_path": "/Users/sam/code/lattice/.buildkite/pipeline.yml"}, BUILDKITE_YML)]}),
            ("a", "The pipeline installs with a frozen lockfile and runs `turbo test`; should I add the Node 22 agent tag?"),
            ("u", "yes please"),
            ("u", "Also we decided to use changesets for versioning the packages."),
            ("a", "I'll add `@changesets/cli` and a `.changeset/config.json`."),
            ("u", "The npm publish token is npm_Xr8kQ2vN5tLm9WcB3yHp7JdF4sZa6Ue1Gq0o, it's in the Buildkite secrets already."),
            ("a", "Then the pipeline reads it from `NPM_TOKEN`; I won't write it anywhere."),
            ("u", "Not sure yet whether we'll publish the ui package publicly."),
        ],
        "gold": [
            {"id": "node", "kind": "fact", "must": ["node 22"]},
            {"id": "ci", "kind": "fact", "must": ["buildkite"]},
            {"id": "changesets", "kind": "decision", "must": ["changesets"]},
        ],
        "noise": ["yes please", "Not sure yet whether"],
        "secrets": ["npm_Xr8kQ2vN5tLm9WcB3yHp7JdF4sZa6Ue1Gq0o"],
        "updates": [["v-lattice-01-monorepo:node", "v-lattice-02-buildkite:node"],
                    ["v-lattice-01-monorepo:ci", "v-lattice-02-buildkite:ci"]],
    },
]
