"""Seventh fresh set ("fresh7"): twelve conversations written by a helper who had not read the
capture rules (nothing under cavemem/memory/capture/, its tests, or sessions_fresh6.py), labelled
here before the rules were ever run on them, never edited afterwards. Held out: the benchmark
prints its totals only.

Same labelling as sessions.py: ``gold`` items match when every ``must`` string is in one memory
captured from that session; ``noise`` strings must not be stored; ``secrets`` must never be stored
verbatim; ``updates`` [old, new] want the newer item current and the older one superseded;
``distinct`` pairs must both stay current. Five projects on different stacks (Rails, Go, Expo /
React Native, Python data pipeline, Kubernetes GitOps); a chatty British user, a terse one, a
Portuguese speaker writing English with mistakes, a data engineer with typos, a Swedish admin;
decisions made by answering the assistant's question and one reversed within a session.
"""

LARDER_LS = "Gemfile\nGemfile.lock\nProcfile.dev\napp\nbin\nconfig\ndb\nlib\nspec\nvendor\n"
LARDER_GEMFILE = ('source "https://rubygems.org"\nruby "3.2.2"\n\ngem "rails", "~> 7.1.3"\ngem "pg", "~> 1.5"\n'
                  'gem "puma", ">= 5.0"\ngem "sidekiq", "~> 7.2"\ngem "sidekiq-cron"\ngem "devise"\n\n'
                  'group :development, :test do\n  gem "rspec-rails", "~> 6.1"\n  gem "factory_bot_rails"\nend\n')
PUMA = ("=> Booting Puma\n=> Rails 7.1.3.4 application starting in development\n"
        "Puma starting in single mode...\n* Puma version: 6.4.2 (ruby 3.2.2-p53) (\"The Eagle of Durango\")\n"
        "*  Min threads: 5\n*  Max threads: 5\n*  Environment: development\n*          PID: 48211\n"
        "* Listening on http://127.0.0.1:3400\nUse Ctrl-C to stop\n")
RSPEC = ("Randomized with seed 41873\n" + "." * 212 + "\n\nFinished in 14.37 seconds (files took 2.11 seconds to load)\n"
         "212 examples, 0 failures\n\nRandomized with seed 41873\n")
CRATE_SCAN = ("class CrateScansController < ApplicationController\n  def create\n"
              "    crate = Crate.find(params[:crate_id])\n"
              "    if CrateScan.exists?(crate: crate, scanned_on: Date.current)\n"
              "      return render json: { status: \"already_scanned\" }\n    end\n"
              "    CrateScan.create!(crate: crate, scanned_on: Date.current, volunteer: current_volunteer)\n"
              "    crate.increment!(:count, crate.units)\n    render json: { status: \"ok\" }\n  end\nend\n")
MIGRATE = ("== 20261126153912 AddUniqueIndexToCrateScans: migrating ========================\n"
           "-- add_index(:crate_scans, [:crate_id, :scanned_on], {:unique=>true})\n   -> 0.0213s\n"
           "== 20261126153912 AddUniqueIndexToCrateScans: migrated (0.0214s) ===============\n")
BUNDLE = ("Fetching gem metadata from https://rubygems.org/.........\nResolving dependencies...\n"
          "Fetching ttfunk 1.8.0\nFetching pdf-core 0.10.0\nInstalling ttfunk 1.8.0\nInstalling pdf-core 0.10.0\n"
          "Fetching prawn 2.5.0\nInstalling prawn 2.5.0\nFetching prawn-table 0.2.2\nInstalling prawn-table 0.2.2\n"
          "Bundle complete! 14 Gemfile dependencies, 97 gems now installed.\n")

GO_TEST = ("ok  \ttollbooth/internal/auth\t0.118s\nok  \ttollbooth/internal/gw\t0.412s\n"
           "ok  \ttollbooth/internal/ratelimit\t1.907s\n?   \ttollbooth/cmd/tollbooth\t[no test files]\n")
LINT = ("internal/ratelimit/window.go:41:2: ineffectual assignment to err (ineffassign)\n"
        "\tres, err := pipe.Exec(ctx)\n\t^\n1 issues:\n* ineffassign: 1\n")
GW_YAML = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: gateway\nspec:\n  replicas: 3\n  template:\n"
           "    spec:\n      containers:\n      - name: gateway\n        image: registry.internal/tollbooth:2.8.1\n"
           "        env:\n        - name: REDIS_ADDR\n          value: redis-gw.internal:6380\n")
KLOGS = "\n".join(f'ts=2026-11-27T14:0{i % 10}:{(i * 7) % 60:02d}Z level=warn msg="rate limited" key=ak_{i:04x} '
                  f'count=100 limit=100' for i in range(24)) + "\n"
WINDOW_GO = ("func (w *Window) Allow(ctx context.Context, key string) (bool, error) {\n"
             "\tnow := time.Now()\n\tcutoff := now.Add(-w.size).Unix()\n\tpipe := w.rdb.TxPipeline()\n"
             "\tpipe.ZRemRangeByScore(ctx, key, \"0\", strconv.FormatInt(cutoff, 10))\n"
             "\tpipe.ZAdd(ctx, key, redis.Z{Score: float64(now.UnixMilli()), Member: now.UnixNano()})\n"
             "\tcard := pipe.ZCard(ctx, key)\n\tpipe.Expire(ctx, key, w.size)\n\t_, err := pipe.Exec(ctx)\n"
             "\treturn card.Val() <= int64(w.limit), err\n}\n")
GO_DL = ("go: downloading github.com/redis/go-redis/v9 v9.7.0\ngo: downloading google.golang.org/grpc v1.68.0\n"
         "go: downloading github.com/prometheus/client_golang v1.20.5\n")

PETAL_PKG = ('{\n  "name": "petalnote",\n  "version": "0.9.3",\n  "main": "expo-router/entry",\n  "scripts": {\n'
             '    "start": "expo start",\n    "test:unit": "jest --selectProjects unit"\n  },\n  "dependencies": {\n'
             '    "expo": "~51.0.14",\n    "react-native": "0.74.3",\n    "@reduxjs/toolkit": "^2.2.5",\n'
             '    "react-redux": "^9.1.2",\n    "@supabase/supabase-js": "^2.43.4",\n    "react-native-mmkv": "^2.12.2"\n  }\n}\n')
TSC = "\nFound 0 errors. Watching for file changes.\n"
QUEUE_TS = ("const pending: Edit[] = [];\n\nexport function enqueue(edit: Edit) {\n  pending.push(edit);\n}\n\n"
            "export async function flush(client: SupabaseClient) {\n  while (pending.length) {\n"
            "    const e = pending[0];\n    await client.from('notes').update(e.patch).eq('id', e.noteId);\n"
            "    pending.shift();\n  }\n}\n")
GRADLE = ("> Task :app:mergeDebugAssets\n> Task :app:compressDebugAssets\n> Task :app:packageDebug\n"
          "> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 2m 14s\n412 actionable tasks: 38 executed, 374 up-to-date\n")

WX_PYPROJECT = ('[project]\nname = "weatherlab"\nrequires-python = ">=3.12"\ndependencies = [\n'
                '  "prefect>=2.19,<3",\n  "clickhouse-connect>=0.7",\n  "httpx>=0.27",\n  "polars>=1.0",\n]\n\n'
                '[tool.uv]\ndev-dependencies = ["pytest>=8", "ruff>=0.5"]\n')
WX_PYTEST = "....................................." + "\n37 passed in 2.91s\n"
CH_GAPS = ("SELECT toStartOfHour(observed_at) AS h, count() FROM isd.observations\n"
           "WHERE observed_at >= '2026-11-29 22:00:00' GROUP BY h ORDER BY h\n\n"
           "Query id: 6f1c2b7e-93aa-4b0d-8d1e-2f5a0c7e9b11\n\n"
           "┌───────────────────h─┬─count()─┐\n│ 2026-11-29 22:00:00 │   11842 │\n│ 2026-11-29 23:00:00 │   11790 │\n"
           "│ 2026-11-30 01:00:00 │   11903 │\n│ 2026-11-30 02:00:00 │   11877 │\n└─────────────────────┴─────────┘\n\n"
           "4 rows in set. Elapsed: 0.041 sec. Processed 1.21 million rows, 4.84 MB\n")
HOURLY_PY = ("@flow(name=\"isd-hourly\")\ndef hourly():\n    now = datetime.now()\n"
             "    path = f\"{ISD_BASE}/{now:%Y}/{now:%Y%m%d}/isd-lite-{now:%Y%m%d%H}.gz\"\n"
             "    rows = fetch_and_parse(path)\n    load(rows)\n")

HARBOR_TREE = ("charts/\n  cert-manager/\n  grafana/\n  ingress-nginx/\n  traefik/\n  velero/\nenvs/\n  dev/\n"
               "    values.yaml\n  prod/\n    values.yaml\napps/\n  root.yaml\n")
PROD_VALUES = ("global:\n  cluster: prod\n  domain: harbor.example.se\ningress-nginx:\n  controller:\n    replicaCount: 3\n"
               "velero:\n  schedules:\n    nightly:\n      schedule: \"0 2 * * *\"\n      template:\n        ttl: 336h\n")
CERT_DESCRIBE = ("Name:         wildcard-harbor\nNamespace:    ingress\nStatus:\n  Conditions:\n"
                 "    Message:  Issuing certificate as Secret does not exist\n    Reason:   DoesNotExist\n"
                 "    Status:   False\n    Type:     Ready\nEvents:\n  Type    Reason     Age   From          Message\n"
                 "  Normal  Issuing    3d    cert-manager  Issuing certificate as Secret does not exist\n"
                 "  Normal  Generated  3d    cert-manager  Stored new private key in temporary Secret\n"
                 "  Normal  Requested  3d    cert-manager  Created new CertificateRequest resource \"wildcard-harbor-1\"\n")
SOLVER = ("NAME                        CLASS    HOSTS                      ADDRESS   PORTS   AGE\n"
          "cm-acme-http-solver-7xk2p   <none>   grafana.harbor.example.se             80      3d\n"
          "cm-acme-http-solver-q9d4w   <none>   argocd.harbor.example.se              80      3d\n")

FRESH7 = [
    {
        "name": "larder-01-setup", "order": 61, "project": "larder", "cwd": "/home/maggie/src/larder", "v2": True,
        "session": "d4e5f6a7-0001-4eee-8fff-000000000061", "start": "2026-11-24T10:12:00", "split": "fresh7",
        "summary": "Larder: first look around",
        "turns": [
            ("u", "Morning! Hope you're well. Right, so this is larder, it's the inventory app for the Eastside food bank. "
                  "Rails 7.1, Ruby 3.2.2, Postgres, Sidekiq for the background stuff. Could you have a look around first "
                  "and tell me what you think of the test setup?"),
            ("a", "", {"thinking": "Start with the Gemfile and the spec folder to see which test framework is in use.",
                       "tools": [("Bash", {"command": "ls"}, LARDER_LS),
                                 ("Read", {"file_path": "/home/maggie/src/larder/Gemfile"}, LARDER_GEMFILE)]}),
            ("a", "The app is on Rails 7.1.3 with RSpec and FactoryBot; there is no `test/` folder, so no minitest. "
                  "Specs live in `spec/` and look well organised. Coverage of the jobs is thin, though."),
            ("u", "Yes the jobs are a bit of a mess. We use RSpec, not minitest, so keep it that way. And please don't add "
                  "any new gems without asking me first — the volunteers who look after this when I'm gone are not Ruby people."),
            ("a", "Understood, I'll ask before touching the Gemfile."),
            ("u", "Can you start the dev server and check it boots?"),
            ("a", "", {"tools": [("Bash", {"command": "bin/dev", "run_in_background": True}, PUMA)]}),
            ("a", "It boots; Puma is listening on 127.0.0.1:3400."),
            ("u", "Yep, the local dev server runs on port 3400 not 3000, because 3000 clashes with the volunteer portal I run locally too."),
            ("u", "Oh and the Sidekiq web UI is mounted at /admin/sidekiq, admins only."),
            ("a", "I see `ExpiryReminderJob` in `app/jobs/` but it isn't scheduled anywhere. Should it run daily, say at "
                  "07:00, or weekly on Mondays?"),
            ("u", "daily, 7am is fine"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/maggie/src/larder/config/schedule.yml",
                                           "old_string": "", "new_string": "expiry_reminders:\n  cron: \"0 7 * * *\"\n  class: ExpiryReminderJob\n"},
                                  "The file /home/maggie/src/larder/config/schedule.yml has been updated.")]}),
            ("a", "Scheduled `ExpiryReminderJob` daily at 07:00 via sidekiq-cron (`config/schedule.yml`)."),
            ("u", "Super. The staging box is larder-staging.eastside.org.uk, we deploy there with `kamal deploy -d staging`."),
            ("u", "The password for the staging db is Pl0ughman!Lunch22 if you need to poke at it, but don't write that down anywhere"),
            ("a", "I won't put it in any file; if I need it I'll ask you to export it in the shell."),
            ("u", "Cheers, that's me for today, ta!"),
            ("a", "Have a good day!"),
        ],
        "gold": [
            {"id": "rails", "kind": "fact", "must": ["rails 7.1"]},
            {"id": "ruby", "kind": "fact", "must": ["ruby", "3.2.2"]},
            {"id": "rspec", "kind": "preference", "must": ["rspec"]},
            {"id": "gems", "kind": "preference", "must": ["gem", "ask"]},
            {"id": "port", "kind": "fact", "must": ["3400"]},
            {"id": "sidekiq", "kind": "fact", "must": ["/admin/sidekiq"]},
            {"id": "expiry", "kind": "decision", "must": ["expiry", "daily"]},
            {"id": "staging", "kind": "fact", "must": ["larder-staging.eastside.org.uk"]},
            {"id": "deploy", "kind": "fact", "must": ["kamal deploy -d staging"]},
        ],
        "noise": ["Hope you're well", "that's me for today", "Have a good day", "Puma starting"],
        "secrets": ["Pl0ughman!Lunch22"],
    },
    {
        "name": "tollbooth-01-ratelimit", "order": 62, "project": "tollbooth", "cwd": "/home/dk/work/tollbooth",
        "branch": "feat/ratelimit",
        "session": "d4e5f6a7-0002-4eee-8fff-000000000062", "start": "2026-11-24T21:40:00", "split": "fresh7",
        "turns": [
            ("u", "go 1.22. gateway in front of the grpc services. add rate limiting per api key"),
            ("a", "", {"thinking": "Check the Go version, the server wiring and how many replicas run — an in-process limiter "
                                   "would multiply the limit by the replica count.",
                       "tools": [("Bash", {"command": "go version"}, "go version go1.22.5 linux/amd64\n"),
                                 ("Read", {"file_path": "/home/dk/work/tollbooth/deploy/k8s/gateway.yaml"}, GW_YAML)]}),
            ("a", "Two ways to do it:\n\n1. an in-process token bucket (`golang.org/x/time/rate`) per instance, or\n"
                  "2. a shared counter in Redis so the limit holds across replicas.\n\n"
                  "`deploy/k8s/gateway.yaml` runs 3 replicas, so option 1 would let each key do 3x the intended rate. "
                  "Go with Redis?"),
            ("u", "redis. sliding window. default 100 req/min per key"),
            ("a", "", {"tools": [("Write", {"file_path": "/home/dk/work/tollbooth/internal/ratelimit/window.go",
                                            "content": WINDOW_GO}, "File created successfully at: /home/dk/work/tollbooth/internal/ratelimit/window.go"),
                                 ("Bash", {"command": "go test ./..."}, GO_TEST)]}),
            ("a", "Added `internal/ratelimit`: a sliding-window limiter on a Redis sorted set per API key, 100 requests "
                  "per minute by default, wired in as a gRPC unary interceptor. Tests pass."),
            ("u", "redis is redis-gw.internal:6380 in prod, localhost:6379 local"),
            ("a", "Set `REDIS_ADDR` defaults accordingly: localhost:6379 in `config/local.yaml`, prod stays on the deployment env."),
            ("u", "also no global vars. pass deps via structs. thats how we do it here"),
            ("a", "Moved the limiter from a package-level var into the `Server` struct."),
            ("u", "lint with golangci-lint run, has to be clean before push"),
            ("a", "", {"tools": [("Bash", {"command": "golangci-lint run"}, LINT)]}),
            ("a", "One ineffassign finding in window.go; fixed it."),
            ("a", "", {"tools": [("Bash", {"command": "golangci-lint run"}, "")]}),
            ("a", "Lint is clean now."),
            ("u", "k"),
        ],
        "gold": [
            {"id": "go", "kind": "fact", "must": ["go 1.22"]},
            {"id": "ratelimit", "kind": "decision", "must": ["redis", "sliding window"]},
            {"id": "default", "kind": "fact", "must": ["100 req"]},
            {"id": "redis_prod", "kind": "fact", "must": ["redis-gw.internal:6380"]},
            {"id": "redis_local", "kind": "fact", "must": ["localhost:6379"]},
            {"id": "globals", "kind": "preference", "must": ["global"]},
            {"id": "lint", "kind": "preference", "must": ["golangci-lint"]},
        ],
        "noise": ["ineffectual assignment", "0.412s", "Lint is clean now", "go1.22.5 linux/amd64"],
        "secrets": [],
        "distinct": [["tollbooth-01-ratelimit:redis_prod", "tollbooth-01-ratelimit:redis_local"]],
    },
    {
        "name": "petalnote-01-state", "order": 63, "project": "petalnote", "cwd": "/Users/joao/dev/petalnote",
        "session": "d4e5f6a7-0003-4eee-8fff-000000000063", "start": "2026-11-25T11:00:00", "split": "fresh7",
        "turns": [
            ("u", "hi! i am working in the petalnote app, is expo sdk 51 with typescript. the backend is supabase. please "
                  "dont use class components, only functions with hooks"),
            ("a", "", {"tools": [("Bash", {"command": "ls src"}, "app\ncomponents\nstore\nsync\nlib\n"),
                                 ("Read", {"file_path": "/Users/joao/dev/petalnote/package.json"}, PETAL_PKG)]}),
            ("a", "Looks like Expo SDK 51 with React Native 0.74 and expo-router. State is in Redux Toolkit under `src/store`."),
            ("u", "yes. for state we was using redux but is too much boilerplate, i want to change for zustand. what you think?"),
            ("a", "Zustand fits an app this size well: no providers, no action types, and selectors are plain functions. "
                  "The one thing you lose is the Redux devtools time travel. Should I migrate the notes slice first and "
                  "leave the rest for later?"),
            ("u", "yes, start with notes slice. after that we remove redux complety"),
            ("a", "", {"thinking": "Replace src/store/notesSlice.ts with a zustand store, update the three screens that "
                                   "use useSelector, keep the same shape so the sync code still works.",
                       "tools": [("Write", {"file_path": "/Users/joao/dev/petalnote/src/store/notes.ts",
                                            "content": "import { create } from 'zustand';\n\nexport const useNotes = create<NotesState>()((set) => ({\n  notes: {},\n  upsert: (n) => set((s) => ({ notes: { ...s.notes, [n.id]: n } })),\n}));\n"},
                                  "File created successfully at: /Users/joao/dev/petalnote/src/store/notes.ts"),
                                 ("Bash", {"command": "npx tsc --noEmit"}, TSC)]}),
            ("a", "Notes are now in a zustand store (`src/store/notes.ts`); the three screens use `useNotes`. TypeScript is happy."),
            ("u", "the supabase project url is https://xyzcompany-petal.supabase.co . the service role key is "
                  "sb_secret_Kq82LmPz0Xw7RtY3 but this one NEVER goes in the app, only in the edge functions"),
            ("a", "Understood — the app only gets the anon key; the service role key stays in the Supabase edge function secrets."),
            ("u", "ah and the tests i run with `npm run test:unit`, is jest"),
            ("a", "OK."),
            ("u", "obrigado!!"),
        ],
        "gold": [
            {"id": "expo", "kind": "fact", "must": ["sdk 51"]},
            {"id": "hooks", "kind": "preference", "must": ["class components"]},
            {"id": "zustand", "kind": "decision", "must": ["zustand", "redux"]},
            {"id": "url", "kind": "fact", "must": ["xyzcompany-petal.supabase.co"]},
            {"id": "service", "kind": "preference", "must": ["service role key", "edge function"]},
            {"id": "tests", "kind": "fact", "must": ["npm run test:unit"]},
        ],
        "noise": ["obrigado", "Found 0 errors"],
        "secrets": ["sb_secret_Kq82LmPz0Xw7RtY3"],
    },
    {
        "name": "larder-02-double-scan", "order": 64, "project": "larder", "cwd": "/home/maggie/src/larder", "v2": True,
        "branch": "fix/double-scan",
        "session": "d4e5f6a7-0004-4eee-8fff-000000000064", "start": "2026-11-26T15:30:00", "split": "fresh7",
        "summary": "Crates counted twice",
        "turns": [
            ("u", "hiya. bit of a weird one — when two volunteers scan the same crate at the same moment, the crate gets "
                  "counted twice. Happened at Saturday's drive, 40-odd tins of beans appeared out of nowhere"),
            ("a", "", {"thinking": "Sounds like a check-then-insert race. Look at the scan controller and the schema for a unique index.",
                       "tools": [("Grep", {"pattern": "CrateScan", "path": "app"}, "app/controllers/crate_scans_controller.rb\napp/models/crate_scan.rb\n"),
                                 ("Read", {"file_path": "/home/maggie/src/larder/app/controllers/crate_scans_controller.rb"}, CRATE_SCAN),
                                 ("Bash", {"command": "grep -n crate_scans -A8 db/schema.rb"},
                                  '152:  create_table "crate_scans", force: :cascade do |t|\n153:    t.bigint "crate_id", null: false\n'
                                  '154:    t.date "scanned_on", null: false\n155:    t.bigint "volunteer_id"\n'
                                  '156:    t.index ["crate_id"], name: "index_crate_scans_on_crate_id"\n')]}),
            ("a", "It's a race: the controller checks `CrateScan.exists?` and then inserts, so two requests arriving together "
                  "both pass the check and both increment the count. There's no unique index on `(crate_id, scanned_on)` to stop it.\n\n"
                  "I'd add a unique index on those two columns and rescue `ActiveRecord::RecordNotUnique` in the controller "
                  "(answering \"already scanned\"), and only increment after the insert succeeds. OK?"),
            ("u", "yes go for it"),
            ("a", "", {"tools": [("Bash", {"command": "bin/rails g migration AddUniqueIndexToCrateScans && bin/rails db:migrate"}, MIGRATE)]}),
            ("a", "Running the suite now."),
            ("a", "", {"tools": [("Bash", {"command": "bundle exec rspec"}, RSPEC)]}),
            ("a", "All green."),
            ("u", "brilliant, just tried it with two phones and it's fixed"),
            ("u", "oh while I remember — the expiry reminders are too early, people complained. Move them to 09:30 please"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/maggie/src/larder/config/schedule.yml",
                                           "old_string": "cron: \"0 7 * * *\"", "new_string": "cron: \"30 9 * * *\""},
                                  "The file /home/maggie/src/larder/config/schedule.yml has been updated.")]}),
            ("a", "ExpiryReminderJob now runs daily at 09:30."),
            ("u", "And staging is moving, new host is larder-stg.eastside.org.uk from Monday. Same kamal command."),
            ("a", "Updated `config/deploy.staging.yml` to larder-stg.eastside.org.uk."),
            ("u", "lovely, ta"),
        ],
        "gold": [
            {"id": "double", "kind": "bugfix", "must": ["twice", "unique index"]},
            {"id": "expiry", "kind": "decision", "must": ["expiry", "09:30"]},
            {"id": "staging", "kind": "fact", "must": ["larder-stg.eastside.org.uk"]},
        ],
        "noise": ["hiya", "Running the suite now", "All green", "212 examples", "lovely, ta"],
        "secrets": [],
        "updates": [["larder-01-setup:expiry", "larder-02-double-scan:expiry"],
                    ["larder-01-setup:staging", "larder-02-double-scan:staging"]],
        "distinct": [["larder-01-setup:deploy", "larder-02-double-scan:staging"]],
    },
    {
        "name": "weatherlab-01-loader", "order": 65, "project": "weatherlab", "cwd": "/srv/weatherlab",
        "session": "d4e5f6a7-0005-4eee-8fff-000000000065", "start": "2026-11-26T08:00:00", "split": "fresh7",
        "turns": [
            ("u", "ok lets get going. weatherlab pulls station data from NOAA ISD every hour and loads it into clickhouse. "
                  "python 3.12, prefect 2 for orchestration, uv for deps"),
            ("a", "", {"tools": [("Read", {"file_path": "/srv/weatherlab/pyproject.toml"}, WX_PYPROJECT),
                                 ("Bash", {"command": "uv run pytest -q"}, WX_PYTEST)]}),
            ("a", "Tests pass (37). The loader in `weatherlab/load.py` inserts observations one row at a time through "
                  "clickhouse-connect, which will be the bottleneck."),
            ("u", "clickhouse is on ch1.weatherlab.lan, port 9000 for native and 8123 for http"),
            ("u", "the hourly flow runs at minute 15, cron `15 * * * *`, becuase noaa publishes a bit late"),
            ("a", "Makes sense. For the loader: shall I switch to batch inserts, say 10k rows per insert?"),
            ("u", "yes batch, but 50k rows per insert, clickhouse likes big batches"),
            ("a", "", {"thinking": "Use client.insert with column-oriented data from polars; chunk the frame in 50_000 rows.",
                       "tools": [("Edit", {"file_path": "/srv/weatherlab/weatherlab/load.py",
                                           "old_string": "for row in rows:\n        client.insert(TABLE, [row])",
                                           "new_string": "for chunk in frame.iter_slices(50_000):\n        client.insert_df(TABLE, chunk.to_pandas())"},
                                  "The file /srv/weatherlab/weatherlab/load.py has been updated."),
                                 ("Bash", {"command": "uv run pytest -q"}, WX_PYTEST)]}),
            ("a", "Loader now inserts in batches of 50,000 rows. A full hour (~12k observations) goes in one insert; "
                  "the backfill of a day dropped from 9 min to 14 s locally."),
            ("u", "nice!! ch password is Wx-Storm-2291-qq, user loader. in .env only pls"),
            ("a", "It's read from `CH_PASSWORD` in `.env`, which is gitignored; nothing in the repo."),
            ("u", "k thx. btw typos in my msgs are normal, ignore them lol"),
        ],
        "gold": [
            {"id": "python", "kind": "fact", "must": ["python 3.12"]},
            {"id": "prefect", "kind": "fact", "must": ["prefect"]},
            {"id": "host", "kind": "fact", "must": ["ch1.weatherlab.lan"]},
            {"id": "native", "kind": "fact", "must": ["9000", "native"]},
            {"id": "http", "kind": "fact", "must": ["8123", "http"]},
            {"id": "schedule", "kind": "fact", "must": ["15 * * * *"]},
            {"id": "batch", "kind": "decision", "must": ["batch", "50"]},
        ],
        "noise": ["ignore them lol", "37 passed", "Tests pass (37)"],
        "secrets": ["Wx-Storm-2291-qq"],
        "distinct": [["weatherlab-01-loader:native", "weatherlab-01-loader:http"]],
    },
    {
        "name": "tollbooth-02-incident", "order": 66, "project": "tollbooth", "cwd": "/home/dk/work/tollbooth",
        "session": "d4e5f6a7-0006-4eee-8fff-000000000066", "start": "2026-11-27T22:10:00", "split": "fresh7",
        "turns": [
            ("u", "prod incident. gateway returned 429 for everyone from 14:00 utc. look at the limiter"),
            ("a", "", {"tools": [("Bash", {"command": "kubectl -n gw logs deploy/gateway --since=10h | grep 'rate limited' | head -24"}, KLOGS),
                                 ("Read", {"file_path": "/home/dk/work/tollbooth/internal/ratelimit/window.go"}, WINDOW_GO)]}),
            ("a", "", {"thinking": "Members are scored with UnixMilli but the cutoff passed to ZREMRANGEBYSCORE is Unix() "
                                   "seconds. Seconds are ~1000x smaller than the millisecond scores, so the trim removes "
                                   "nothing; every key's set only grows until it passes 100, then every request is refused."}),
            ("a", "Found it. In `Window.Allow` the entries are scored in milliseconds (`UnixMilli`) but the cutoff for "
                  "`ZREMRANGEBYSCORE` is computed in seconds (`Unix()`), so old entries were never trimmed: each key's set "
                  "kept growing and once it held 100 entries every request got a 429. Keys with steady traffic hit that "
                  "around 14:00.\n\nFix: compute the cutoff with `UnixMilli()` too, and a test that runs two windows back to back."),
            ("u", "ship it"),
            ("a", "", {"tools": [("Bash", {"command": "go test ./internal/ratelimit/ -run TestWindow -v"},
                                  "=== RUN   TestWindowTrims\n--- PASS: TestWindowTrims (2.01s)\n=== RUN   TestWindowLimit\n"
                                  "--- PASS: TestWindowLimit (0.00s)\nPASS\nok  \ttollbooth/internal/ratelimit\t2.019s\n")]}),
            ("a", "Committed as `fix(ratelimit): trim window in milliseconds` on main."),
            ("u", "deployed. confirmed fixed in prod. also bump default to 300 req/min, 100 was too tight for the mobile app"),
            ("a", "Default limit is now 300 requests per minute per key (`ratelimit.default_per_min` in `config/base.yaml`)."),
            ("u", "partner sandbox api key: tb_live_9QmZx4Lr2Wc8Vn5Kp7Ht3Jy6 . put it in env not code"),
            ("a", "It's read from `TOLLBOOTH_PARTNER_KEY`; I added the name to `.env.example` without the value."),
            ("u", "process thing: every prod incident gets a postmortem in docs/postmortems/ within 48h. write this one pls"),
            ("a", "", {"tools": [("Write", {"file_path": "/home/dk/work/tollbooth/docs/postmortems/2026-11-27-ratelimit-429.md",
                                            "content": "# 2026-11-27 — every client rate limited\n\n## Impact\n..."},
                                  "File created successfully at: /home/dk/work/tollbooth/docs/postmortems/2026-11-27-ratelimit-429.md")]}),
            ("a", "Wrote `docs/postmortems/2026-11-27-ratelimit-429.md`."),
            ("u", "thx"),
        ],
        "gold": [
            {"id": "429", "kind": "bugfix", "must": ["429", "millisecond"]},
            {"id": "default", "kind": "fact", "must": ["300 req"]},
            {"id": "postmortem", "kind": "preference", "must": ["postmortem", "48h"]},
        ],
        "noise": ["ship it", 'msg="rate limited"', "--- PASS", "thx"],
        "secrets": ["tb_live_9QmZx4Lr2Wc8Vn5Kp7Ht3Jy6"],
        "updates": [["tollbooth-01-ratelimit:default", "tollbooth-02-incident:default"]],
    },
    {
        "name": "harbor-ops-01-gitops", "order": 67, "project": "harbor-ops", "cwd": "/home/sven/infra/harbor-ops",
        "session": "d4e5f6a7-0007-4eee-8fff-000000000067", "start": "2026-11-28T13:00:00", "split": "fresh7",
        "turns": [
            ("u", "Hello. This repo is the GitOps repo for our clusters. ArgoCD syncs from the main branch. Helm charts are "
                  "under charts/, environments under envs/dev and envs/prod. Please never run kubectl apply directly against "
                  "prod, everything goes through git."),
            ("a", "", {"tools": [("Bash", {"command": "find . -maxdepth 3 -not -path './.git*'"}, HARBOR_TREE),
                                 ("Read", {"file_path": "/home/sven/infra/harbor-ops/envs/prod/values.yaml"}, PROD_VALUES)]}),
            ("a", "Got the layout: an app-of-apps in `apps/root.yaml`, one values file per environment."),
            ("u", "Kubernetes version is 1.29 on both clusters. We upgrade to 1.30 in january probably."),
            ("a", "Noted. One question: `charts/` has both ingress-nginx and Traefik. Which ingress controller is live?"),
            ("u", "ingress-nginx. traefik is a leftover, you can delete it"),
            ("a", "", {"tools": [("Bash", {"command": "git rm -r charts/traefik"}, "rm 'charts/traefik/Chart.yaml'\nrm 'charts/traefik/values.yaml'\n")]}),
            ("a", "Removed `charts/traefik`."),
            ("u", "Wait, no. Keep traefik, the dev cluster still uses it in front of grafana. Sorry, my mistake."),
            ("a", "", {"tools": [("Bash", {"command": "git restore --staged --worktree charts/traefik"}, "")]}),
            ("a", "Restored charts/traefik. So: ingress-nginx everywhere, plus Traefik on dev for Grafana."),
            ("u", "Correct. Backups are with velero, every night at 02:00, kept 14 days, to the bucket s3://harbor-velero-backups"),
            ("a", "Matches `envs/prod/values.yaml` (schedule `0 2 * * *`, ttl 336h)."),
            ("u", "The grafana admin password is at the moment 'nordlys-Fjord#77', I will rotate it soon, but do not put it in values.yaml"),
            ("a", "Understood. Grafana should read it from a sealed secret; I won't write the value anywhere."),
            ("u", "Thank you, good work."),
        ],
        "gold": [
            {"id": "argocd", "kind": "fact", "must": ["argocd", "main"]},
            {"id": "kubectl", "kind": "preference", "must": ["kubectl apply", "prod"]},
            {"id": "k8s", "kind": "fact", "must": ["1.29"]},
            {"id": "ingress", "kind": "decision", "must": ["ingress-nginx"]},
            {"id": "traefik", "kind": "decision", "must": ["traefik", "grafana"]},
            {"id": "velero", "kind": "fact", "must": ["velero", "02:00"]},
            {"id": "bucket", "kind": "fact", "must": ["harbor-velero-backups"]},
            {"id": "retention", "kind": "fact", "must": ["14 days"]},
        ],
        "noise": ["Thank you, good work", "Removed `charts/traefik`", "rm 'charts/traefik"],
        "secrets": ["nordlys-Fjord#77"],
    },
    {
        "name": "petalnote-02-offline", "order": 68, "project": "petalnote", "cwd": "/Users/joao/dev/petalnote",
        "session": "d4e5f6a7-0008-4eee-8fff-000000000068", "start": "2026-11-29T10:20:00", "split": "fresh7",
        "turns": [
            ("u", "hello again. we upgraded to expo sdk 52 yesterday, so please dont add nothing that break with the new architecture"),
            ("a", "Noted — I'll stick to libraries that support the New Architecture."),
            ("u", "bug: when the user is offline and edit a note, after he come back online the edit is lost. happen on android only i think"),
            ("a", "", {"thinking": "The sync queue is a module-level array. On Android the OS kills backgrounded apps much more "
                                   "often, so anything queued while offline dies with the process.",
                       "tools": [("Read", {"file_path": "/Users/joao/dev/petalnote/src/sync/queue.ts"}, QUEUE_TS)]}),
            ("a", "The offline queue in `src/sync/queue.ts` only lives in memory. Android kills backgrounded apps much more "
                  "eagerly than iOS, so edits queued while offline are gone when the process is restarted. The queue has "
                  "to be persisted. Use AsyncStorage, or MMKV (faster, synchronous)?"),
            ("u", "mmkv, we have it already for the settings"),
            ("a", "", {"tools": [("Edit", {"file_path": "/Users/joao/dev/petalnote/src/sync/queue.ts",
                                           "old_string": "const pending: Edit[] = [];",
                                           "new_string": "const store = new MMKV({ id: 'sync' });\nconst pending: Edit[] = JSON.parse(store.getString('sync.queue') ?? '[]');"},
                                  "The file /Users/joao/dev/petalnote/src/sync/queue.ts has been updated."),
                                 ("Bash", {"command": "npx expo run:android --variant debug"}, GRADLE)]}),
            ("a", "The queue is now persisted in MMKV under `sync.queue`, written on every enqueue and replayed on reconnect."),
            ("u", "i test on my pixel, now is working!!"),
            ("u", "the minimum android is API 26 and minimum ios is 15.1, for when you add libs"),
            ("a", "OK, I'll check new dependencies against Android API 26 and iOS 15.1."),
            ("u", "also remember: we use pnpm now, not npm, i changed it this week. so tests is `pnpm test:unit`"),
            ("a", "Got it, pnpm from now on."),
            ("u", "valeu, bye"),
        ],
        "gold": [
            {"id": "expo", "kind": "fact", "must": ["sdk 52"]},
            {"id": "offline", "kind": "bugfix", "must": ["offline", "mmkv"]},
            {"id": "android", "kind": "fact", "must": ["api 26"]},
            {"id": "ios", "kind": "fact", "must": ["ios 15.1"]},
            {"id": "tests", "kind": "fact", "must": ["pnpm test:unit"]},
        ],
        "noise": ["hello again", "BUILD SUCCESSFUL", "valeu", "412 actionable tasks"],
        "secrets": [],
        "updates": [["petalnote-01-state:expo", "petalnote-02-offline:expo"],
                    ["petalnote-01-state:tests", "petalnote-02-offline:tests"]],
        "distinct": [["petalnote-02-offline:android", "petalnote-02-offline:ios"]],
    },
    {
        "name": "weatherlab-02-gaps", "order": 69, "project": "weatherlab", "cwd": "/srv/weatherlab", "v2": True,
        "session": "d4e5f6a7-0009-4eee-8fff-000000000069", "start": "2026-11-30T08:30:00", "split": "fresh7",
        "turns": [
            ("u", "morning. the dashbaords show a gap every night between 00:00 and 01:00 UTC, no data at all"),
            ("a", "", {"tools": [("Bash", {"command": "clickhouse-client -h ch1.weatherlab.lan -q \"SELECT toStartOfHour(observed_at) ...\""}, CH_GAPS),
                                 ("Read", {"file_path": "/srv/weatherlab/flows/hourly.py"}, HOURLY_PY),
                                 ("Bash", {"command": "timedatectl | grep 'Time zone'"}, "                Time zone: Asia/Kolkata (IST, +0530)\n")]}),
            ("a", "", {"thinking": "datetime.now() is naive local time, IST. At 00:15 UTC it's 05:45 IST the same day — hmm, "
                                   "no, that's the right date but the wrong hour: the flow asks for hour 05 which NOAA hasn't "
                                   "published, the request 404s, and the flow skips it. Every hour is shifted by 5:30, "
                                   "the midnight UTC hour is the one that falls into the day boundary of the file names."}),
            ("a", "The 00:00 hour is missing. `flows/hourly.py` builds the NOAA file path from `datetime.now()`, which is the "
                  "server's local time (Asia/Kolkata, UTC+5:30), not UTC, so around midnight UTC the flow asks for a file "
                  "from the wrong day and hour, gets a 404 and skips it. Fix: build the path from `datetime.now(timezone.utc)`."),
            ("u", "ugh. yes do it"),
            ("a", "", {"tools": [("Edit", {"file_path": "/srv/weatherlab/flows/hourly.py", "old_string": "now = datetime.now()",
                                           "new_string": "now = datetime.now(timezone.utc)"},
                                  "The file /srv/weatherlab/flows/hourly.py has been updated.")]}),
            ("u", "fixed, i backfilled last week and the gaps are gone"),
            ("u", "convention from now: all timestamps in the db are UTC, DateTime64(3, 'UTC'), no local time anywhere"),
            ("a", "I'll check the other tables for naive DateTime columns."),
            ("u", "and big news we are moving off prefect to dagster. team decided yesterday, prefect cloud pricing got silly"),
            ("a", "Do you want me to port the hourly flow now and switch over, or run both side by side for a while?"),
            ("u", "keep both for 2 weeks, then kill prefect"),
            ("a", "OK: I'll add a Dagster job next to the Prefect flow; both load into separate staging tables for comparison."),
            ("u", "oh, and the schedule -> `20 * * * *` now, noaa got even slower"),
            ("a", "Changed the schedule to minute 20."),
        ],
        "gold": [
            {"id": "gaps", "kind": "bugfix", "must": ["gap", "utc"]},
            {"id": "utc", "kind": "preference", "must": ["DateTime64"]},
            {"id": "dagster", "kind": "decision", "must": ["dagster"]},
            {"id": "both", "kind": "decision", "must": ["2 weeks"]},
            {"id": "schedule", "kind": "fact", "must": ["20 * * * *"]},
        ],
        "noise": ["Query id", "Elapsed: 0.041", "Time zone: Asia/Kolkata"],
        "secrets": [],
        "updates": [["weatherlab-01-loader:prefect", "weatherlab-02-gaps:dagster"],
                    ["weatherlab-01-loader:schedule", "weatherlab-02-gaps:schedule"]],
    },
    {
        "name": "larder-03-reports", "order": 70, "project": "larder", "cwd": "/home/maggie/src/larder", "v2": True,
        "session": "d4e5f6a7-0010-4eee-8fff-000000000070", "start": "2026-12-01T09:05:00", "split": "fresh7",
        "summary": "Monthly stock report",
        "turns": [
            ("meta", "Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to."),
            ("u", "<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>"),
            ("u", "Morning. The trustees want a monthly PDF of stock levels. Before you start — what would you use for the PDFs?"),
            ("a", "Two options:\n\n- **Prawn**: pure Ruby, no system dependencies, you lay the page out in code.\n"
                  "- **Grover**: renders our existing HTML views with headless Chrome; nicer output, but it needs "
                  "Chromium on the server.\n\nWhich would you prefer?"),
            ("u", "prawn. we are not installing chromium on that poor little VPS"),
            ("a", "That means adding the `prawn` and `prawn-table` gems. OK to add both?"),
            ("u", "yep, both fine"),
            ("a", "", {"tools": [("Bash", {"command": "bundle add prawn prawn-table"}, BUNDLE)]}),
            ("a", "", {"thinking": "Service object builds the table grouped by category; a job runs it monthly and mails the PDF.",
                       "tools": [("Write", {"file_path": "/home/maggie/src/larder/app/services/stock_report.rb",
                                            "content": "class StockReport\n  def initialize(month)\n    @month = month\n  end\n\n  def render\n    Prawn::Document.new do |pdf|\n      pdf.text \"Stock levels — #{@month.strftime('%B %Y')}\", size: 18\n    end.render\n  end\nend\n"},
                                  "File created successfully at: /home/maggie/src/larder/app/services/stock_report.rb")]}),
            ("a", "The report is built in `app/services/stock_report.rb`; `StockReportJob` runs on the 1st of each month at "
                  "06:00 and emails the PDF."),
            ("u", "Perfect. Actually, make it the 2nd — the 1st is when Dave does the stock take and the numbers are all over the place"),
            ("a", "Moved: `StockReportJob` now runs on the 2nd of each month at 06:00."),
            ("u", "Also, remember: the trustees' address is trustees@eastside.org.uk, and the report must never include donor "
                  "names. GDPR, and some donors asked to stay anonymous."),
            ("a", "The report only aggregates by category and date; no donor fields are loaded."),
            ("u", "Oh and I'm on Ruby 3.3.6 now, I upgraded over the weekend. Should have said."),
            ("a", "", {"tools": [("Bash", {"command": "ruby -v && grep '^ruby' Gemfile"}, "ruby 3.3.6 (2024-11-05 revision 75015d4c1f) [x86_64-linux]\nruby \"3.3.6\"\n")]}),
            ("a", "Gemfile already says 3.3.6, all consistent."),
            ("u", "ok lovely, thanks so much, have a good one"),
        ],
        "gold": [
            {"id": "prawn", "kind": "decision", "must": ["prawn", "chromium"]},
            {"id": "report", "kind": "fact", "must": ["report", "2nd"]},
            {"id": "trustees", "kind": "explicit", "must": ["trustees@eastside.org.uk"]},
            {"id": "donors", "kind": "preference", "must": ["donor names"]},
            {"id": "ruby", "kind": "fact", "must": ["ruby", "3.3.6"]},
        ],
        "noise": ["have a good one", "Fetching gem metadata", "Bundle complete", "/clear", "Caveat"],
        "secrets": [],
        "updates": [["larder-01-setup:ruby", "larder-03-reports:ruby"]],
        "distinct": [["larder-01-setup:rails", "larder-03-reports:ruby"]],
    },
    {
        "name": "tollbooth-03-metrics", "order": 71, "project": "tollbooth", "cwd": "/home/dk/work/tollbooth",
        "branch": "chore/redis-move",
        "session": "d4e5f6a7-0011-4eee-8fff-000000000071", "start": "2026-12-01T20:00:00", "split": "fresh7",
        "turns": [
            ("u", "moving redis. new prod one is redis-gw-2.internal:6380, old box gets decommissioned friday"),
            ("a", "", {"tools": [("Grep", {"pattern": "redis-gw.internal", "path": "."},
                                  "deploy/k8s/gateway.yaml:14:          value: redis-gw.internal:6380\ndocs/runbook.md:22:redis-gw.internal:6380\n")]}),
            ("a", "Updated `deploy/k8s/gateway.yaml` and `docs/runbook.md` to redis-gw-2.internal:6380. Local stays on localhost:6379."),
            ("u", "also bump go to 1.23, ci image already has it"),
            ("a", "", {"tools": [("Bash", {"command": "go mod edit -go=1.23 && go mod tidy && go test ./..."}, GO_DL + GO_TEST)]}),
            ("a", "go.mod says 1.23 now, tests pass."),
            ("u", "and add a metrics endpoint. prometheus, port 9102, /metrics"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/dk/work/tollbooth/cmd/tollbooth/main.go",
                                           "old_string": "srv.Serve(lis)",
                                           "new_string": "go metrics.Serve(\":9102\")\n\tsrv.Serve(lis)"},
                                  "The file /home/dk/work/tollbooth/cmd/tollbooth/main.go has been updated.")]}),
            ("a", "Metrics are served on :9102/metrics (request counts, limiter rejections, Redis latency histogram)."),
            ("u", "👍"),
        ],
        "gold": [
            {"id": "redis_prod", "kind": "fact", "must": ["redis-gw-2.internal:6380"]},
            {"id": "go", "kind": "fact", "must": ["go", "1.23"]},
            {"id": "metrics", "kind": "fact", "must": ["9102"]},
        ],
        "noise": ["👍", "go: downloading"],
        "secrets": [],
        "updates": [["tollbooth-01-ratelimit:redis_prod", "tollbooth-03-metrics:redis_prod"],
                    ["tollbooth-01-ratelimit:go", "tollbooth-03-metrics:go"]],
        "distinct": [["tollbooth-01-ratelimit:redis_local", "tollbooth-03-metrics:redis_prod"]],
    },
    {
        "name": "harbor-ops-02-certs", "order": 72, "project": "harbor-ops", "cwd": "/home/sven/infra/harbor-ops",
        "session": "d4e5f6a7-0012-4eee-8fff-000000000072", "start": "2026-12-02T09:00:00", "split": "fresh7",
        "turns": [
            ("u", "Hi. We did the upgrade earlier than planned, both clusters are on Kubernetes 1.30 now."),
            ("a", "Good to know."),
            ("u", "Problem since then: cert-manager certificates are stuck in Issuing, no new certificate since tuesday."),
            ("a", "", {"tools": [("Bash", {"command": "kubectl --context dev -n ingress describe certificate wildcard-harbor"}, CERT_DESCRIBE),
                                 ("Bash", {"command": "kubectl --context dev get ingress -A | grep acme"}, SOLVER)]}),
            ("a", "", {"thinking": "Solver ingresses have CLASS <none>. The ClusterIssuer probably still sets the old "
                                   "kubernetes.io/ingress.class annotation via http01.ingress.class; the newer ingress-nginx "
                                   "ignores the annotation, so nothing serves the challenge."}),
            ("a", "The ACME HTTP-01 solver ingresses have no ingress class (`CLASS <none>`): the ClusterIssuer still uses "
                  "`http01.ingress.class: nginx`, which sets the old `kubernetes.io/ingress.class` annotation, and the "
                  "ingress-nginx version that came with the upgrade ignores it. So the challenges are never served and the "
                  "certificates stay in Issuing. Fix: `http01.ingress.ingressClassName: nginx` in the ClusterIssuer "
                  "(`charts/cert-manager/templates/clusterissuer.yaml`)."),
            ("u", "yes please change it, via git of course"),
            ("a", "", {"tools": [("Bash", {"command": "git commit -am 'cert-manager: use ingressClassName for http01 solver' && git push"},
                                  "[main 4e1a9c2] cert-manager: use ingressClassName for http01 solver\n 1 file changed, 1 insertion(+), 1 deletion(-)\n")]}),
            ("a", "Pushed; ArgoCD will sync it within 3 minutes."),
            ("u", "Yes that was it, the certs are issued now. Thanks!"),
            ("u", "Change for backups: velero at 03:30 now, 02:00 collides with the database dumps. Retention stays 14 days."),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/sven/infra/harbor-ops/envs/prod/values.yaml",
                                           "old_string": "schedule: \"0 2 * * *\"", "new_string": "schedule: \"30 3 * * *\""},
                                  "The file /home/sven/infra/harbor-ops/envs/prod/values.yaml has been updated.")]}),
            ("a", "Velero nightly schedule is now 03:30 in `envs/prod/values.yaml`; ttl unchanged."),
            ("u", "And remember: the prod cluster API is https://k8s-prod.harbor.internal:6443 and dev is https://k8s-dev.harbor.internal:6443"),
            ("a", "Noted both endpoints."),
            ("u", "That is all for today. Hej då!"),
        ],
        "gold": [
            {"id": "k8s", "kind": "fact", "must": ["1.30"]},
            {"id": "certs", "kind": "bugfix", "must": ["issuing", "ingressClassName"]},
            {"id": "velero", "kind": "fact", "must": ["velero", "03:30"]},
            {"id": "api_prod", "kind": "explicit", "must": ["k8s-prod.harbor.internal"]},
            {"id": "api_dev", "kind": "explicit", "must": ["k8s-dev.harbor.internal"]},
        ],
        "noise": ["Hej då", "Good to know", "1 file changed", "That is all for today"],
        "secrets": [],
        "updates": [["harbor-ops-01-gitops:k8s", "harbor-ops-02-certs:k8s"],
                    ["harbor-ops-01-gitops:velero", "harbor-ops-02-certs:velero"]],
        "distinct": [["harbor-ops-01-gitops:retention", "harbor-ops-02-certs:velero"],
                     ["harbor-ops-02-certs:api_prod", "harbor-ops-02-certs:api_dev"]],
    },
]
