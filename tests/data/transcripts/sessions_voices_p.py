"""Voices set P (see build_voices.py), written by capture helper H8 on 2026-12-04 after set O's misses were
fixed, to test whether those fixes generalise: an Italian shop owner who codes (Django, long run-on
sentences, "allora", "ecco"), a Korean Flutter developer (dropped articles, "~" and "^^"), a Polish data
engineer (Airflow + dbt, very direct), and a terse typo-ridden Go CLI author. Noise is glued to the facts
as much as beside them: a feeling before the fact, chatter after it, thanks, jokes, tool-output remarks,
plans for later; secrets in prose; the second session of each project changes what the first stated.
Names chosen and labels written with the conversations, before any capture run; split by name hash."""

PIP_OUT = ("Collecting django==5.0.6\n  Using cached Django-5.0.6-py3-none-any.whl (8.2 MB)\nCollecting stripe==9.9.0\n"
           "Installing collected packages: stripe, django\nSuccessfully installed django-5.0.6 stripe-9.9.0\n")
DJ_TEST = ("Found 84 test(s).\nCreating test database for alias 'default'...\nSystem check identified no issues (0 silenced).\n"
           "....................................................................................\n"
           "----------------------------------------------------------------------\nRan 84 tests in 7.113s\n\nOK\n")
DJ_TRACE = ("Traceback (most recent call last):\n  File \"/srv/gelato/shop/views.py\", line 57, in checkout\n"
            "    total = sum(i.price * i.qty for i in cart.items)\nTypeError: unsupported operand type(s) for *: 'decimal.Decimal' and 'float'\n")
FLUTTER_DOCTOR = ("Doctor summary (to see all details, run flutter doctor -v):\n[✓] Flutter (Channel stable, 3.22.2, on macOS 14.5)\n"
                  "[✓] Android toolchain - develop for Android devices (Android SDK version 34.0.0)\n[✓] Xcode - develop for iOS and macOS (Xcode 15.4)\n"
                  "[!] Android Studio (version 2024.1)\n    ✗ Unable to determine bundled Java version.\n• No issues found in 3 categories.\n")
FLUTTER_ERR = ("══╡ EXCEPTION CAUGHT BY WIDGETS LIBRARY ╞══\nThe following assertion was thrown building HomeScreen:\n"
               "setState() called after dispose(): _HomeScreenState#3a9f1(lifecycle state: defunct, not mounted)\n"
               "#0      State.setState (package:flutter/src/widgets/framework.dart:1167:9)\n#1      _HomeScreenState._loadFeed (package:hanok/screens/home.dart:88:5)\n")
AIRFLOW_LIST = ("dag_id                  | fileloc                          | owners | is_paused\n"
                "========================+==================================+========+==========\n"
                "wisla_ingest_orders     | /opt/airflow/dags/ingest.py      | data   | False\n"
                "wisla_dbt_build         | /opt/airflow/dags/dbt_build.py   | data   | False\n")
DBT_RUN = ("18:02:11  Running with dbt=1.7.14\n18:02:12  Found 42 models, 118 tests, 6 sources\n"
           "18:02:40  Completed successfully\n18:02:40  Done. PASS=160 WARN=2 ERROR=0 SKIP=0 TOTAL=162\n")
GO_BUILD = ("$ go build ./... && go test ./...\nok  \tgithub.com/ritz/tallow/cmd\t0.118s\nok  \tgithub.com/ritz/tallow/internal/sync\t0.402s\n"
            "--- FAIL: TestWatch (1.02s)\n    watch_test.go:41: expected 1 event, got 2\nFAIL\tgithub.com/ritz/tallow/internal/watch\t1.031s\n")
GORELEASER = ("  • starting release\n  • loading config file                              file=.goreleaser.yaml\n"
              "  • building binaries\n    • building                                     binary=dist/tallow_linux_amd64_v1/tallow\n"
              "  • release succeeded after 41s\n")

VOICES_P = [
    {
        "name": "v-gelato-01-checkout", "order": 447, "project": "gelato-shop", "cwd": "/home/giulia/progetti/gelato-shop",
        "session": "f3a4b5c6-0147-4eee-8fff-000000000447", "start": "2026-11-18T21:30:00",
        "turns": [
            ("u", "buonasera! allora, I have a little online shop for my gelateria and I made it myself with Django 5.0, "
                  "it is my first real project so please be patient with me"),
            ("a", "Happy to help. What would you like to work on?"),
            ("u", "ecco, the checkout explodes when somebody buys more than one box, look at this"),
            ("a", "", {"tools": [("Bash", {"command": "tail -n 5 /srv/gelato/logs/error.log"}, DJ_TRACE)]}),
            ("a", "", {"thinking": "price is a DecimalField, qty comes from the session as float after JSON round trip."}),
            ("a", "Fixed the checkout crash. Cause: the quantity came back from the session as a float and Decimal * float raises a TypeError. "
                  "Fix: I cast the quantity with `int()` when reading the cart from the session, and added a test for two boxes."),
            ("a", "", {"tools": [("Bash", {"command": "python manage.py test"}, DJ_TEST)]}),
            ("u", "mamma mia, thank you so much!! it was driving me crazy for a week"),
            ("u", "payments go through Stripe, and the shop is hosted on PythonAnywhere, the cheap plan"),
            ("u", "one thing I want always: prices are shown with the comma, like 4,50 €, never with the dot"),
            ("a", "I'll use `floatformat` with the Italian locale in the templates."),
            ("u", "the stripe secret key is sk_live_51Gelat0RealKeyx9Q2mN7vB4cX8zL1pK, but maybe better you don't write it anywhere haha"),
            ("a", "Right, it stays in the environment on PythonAnywhere, not in the code."),
            ("u", "ok now I go to sleep, tomorrow the shop opens at 7"),
        ],
        "gold": [
            {"id": "django", "kind": "fact", "must": ["django 5.0"]},
            {"id": "crash", "kind": "bugfix", "must": ["float", "int()"]},
            {"id": "stripe", "kind": "fact", "must": ["stripe", "pythonanywhere"]},
            {"id": "comma", "kind": "preference", "must": ["comma", "never with the dot"]},
        ],
        "noise": ["please be patient with me", "mamma mia", "driving me crazy", "I go to sleep", "buonasera"],
        "secrets": ["sk_live_51Gelat0RealKeyx9Q2mN7vB4cX8zL1pK"],
    },
    {
        "name": "v-gelato-02-hosting", "order": 448, "project": "gelato-shop", "cwd": "/home/giulia/progetti/gelato-shop",
        "session": "f3a4b5c6-0148-4eee-8fff-000000000448", "start": "2026-12-02T22:05:00",
        "turns": [
            ("u", "ciao again! big news, my nephew helped me and now the shop is on Hetzner, not PythonAnywhere anymore"),
            ("a", "", {"tools": [("Bash", {"command": "pip install -r requirements.txt"}, PIP_OUT)]}),
            ("a", "Dependencies are installed on the new server."),
            ("u", "also we upgraded to Django 5.1 in the same moment, he said it is better to do everything together, boh"),
            ("a", "I'll run the test suite against 5.1 before switching DNS."),
            ("u", "for the shipping, from now on orders under 30 € pay 5 € of shipping, over 30 € it is free"),
            ("a", "Added the rule to `shop/shipping.py` with a test for 29,99 € and 30 €."),
            ("u", "I don't know if people will like it, we will see in summer"),
            ("u", "grazie mille, buona notte"),
        ],
        "gold": [
            {"id": "host", "kind": "fact", "must": ["hetzner"]},
            {"id": "django", "kind": "fact", "must": ["django 5.1"]},
            {"id": "shipping", "kind": "preference", "must": ["under 30 €", "5 € of shipping"]},
        ],
        "noise": ["big news", "boh", "I don't know if people will like it", "buona notte"],
        "secrets": [],
        "updates": [["v-gelato-01-checkout:stripe", "v-gelato-02-hosting:host"],
                    ["v-gelato-01-checkout:django", "v-gelato-02-hosting:django"]],
    },
    {
        "name": "v-hanok-01-feed", "order": 449, "project": "hanok", "cwd": "/Users/jiwoo/dev/hanok",
        "session": "f3a4b5c6-0149-4eee-8fff-000000000449", "start": "2026-11-20T10:15:00",
        "turns": [
            ("u", "hello~ hanok is travel app for traditional house stays, made with Flutter 3.22 ^^"),
            ("a", "", {"tools": [("Bash", {"command": "flutter doctor"}, FLUTTER_DOCTOR)]}),
            ("a", "Flutter 3.22.2 on stable; Android Studio's Java version can't be detected, but the toolchain works."),
            ("u", "state management is Riverpod, please not suggest Bloc, team already decided"),
            ("a", "Understood, Riverpod only."),
            ("u", "when I go back from home screen fast, app shows red error screen. can you fix?"),
            ("a", "", {"tools": [("Bash", {"command": "flutter logs | grep -A4 EXCEPTION"}, FLUTTER_ERR)]}),
            ("a", "Fixed. Root cause: `_loadFeed` calls `setState` after the await, when the screen was already disposed. "
                  "Fix: I check `mounted` before `setState` in `_loadFeed`, and moved the feed into a Riverpod `FutureProvider`."),
            ("u", "wow so fast, thank you~"),
            ("u", "backend API is https://api.hanok.kr/v2, dev server is api-dev.hanok.kr"),
            ("u", "hmm android studio warning is strange but not important i think"),
            ("u", "today finish, I go lunch ^^"),
        ],
        "gold": [
            {"id": "flutter", "kind": "fact", "must": ["flutter 3.22"]},
            {"id": "riverpod", "kind": "preference", "must": ["riverpod", "bloc"]},
            {"id": "mounted", "kind": "bugfix", "must": ["setstate", "mounted"]},
            {"id": "api", "kind": "fact", "must": ["api.hanok.kr/v2"]},
        ],
        "noise": ["so fast, thank you", "android studio warning is strange", "I go lunch"],
        "secrets": [],
    },
    {
        "name": "v-hanok-02-api", "order": 450, "project": "hanok", "cwd": "/Users/jiwoo/dev/hanok",
        "session": "f3a4b5c6-0150-4eee-8fff-000000000450", "start": "2026-12-01T09:40:00",
        "turns": [
            ("u", "good morning~ backend team changed API version, now it is https://api.hanok.kr/v3"),
            ("a", "I'll update `ApiConfig.baseUrl` and the generated client."),
            ("u", "and we upgraded Flutter to 3.24 yesterday"),
            ("a", "", {"tools": [("Bash", {"command": "flutter --version"}, "Flutter 3.24.3 • channel stable\nDart 3.5.3 • DevTools 2.37.3\n")]}),
            ("a", "Flutter 3.24.3 with Dart 3.5.3."),
            ("u", "map key for naver map is nvmap-7Hq2Lp9XwK4r, it is only for dev"),
            ("a", "I'll put it in `--dart-define` for dev builds, not in the repository."),
            ("u", "so tired today, meeting all morning ㅠㅠ"),
        ],
        "gold": [
            {"id": "api", "kind": "fact", "must": ["api.hanok.kr/v3"]},
            {"id": "flutter", "kind": "fact", "must": ["flutter to 3.24"]},
        ],
        "noise": ["so tired today", "meeting all morning"],
        "secrets": ["nvmap-7Hq2Lp9XwK4r"],
        "updates": [["v-hanok-01-feed:api", "v-hanok-02-api:api"], ["v-hanok-01-feed:flutter", "v-hanok-02-api:flutter"]],
    },
    {
        "name": "v-wisla-01-orders", "order": 451, "project": "wisla-dwh", "cwd": "/home/piotr/wisla-dwh",
        "session": "f3a4b5c6-0151-4eee-8fff-000000000451", "start": "2026-11-21T08:00:00",
        "turns": [
            ("u", "Context: wisla-dwh is our warehouse. Airflow 2.9 orchestrates, dbt does the transformations, warehouse is Snowflake."),
            ("a", "", {"tools": [("Bash", {"command": "airflow dags list"}, AIRFLOW_LIST)]}),
            ("a", "Two DAGs: `wisla_ingest_orders` and `wisla_dbt_build`, both active."),
            ("u", "The ingest DAG runs at 02:00 UTC. dbt build runs right after it."),
            ("u", "Rule: every dbt model has a unique test on its primary key. No exceptions."),
            ("a", "I'll add the missing `unique` tests to the three models that lack them."),
            ("a", "", {"tools": [("Bash", {"command": "dbt build --select orders+"}, DBT_RUN)]}),
            ("u", "2 warnings, don't care today."),
            ("u", "We decided: staging models are views, marts are tables."),
            ("a", "I'll set `+materialized: view` for staging and `table` for marts in `dbt_project.yml`."),
            ("u", "Good. Enough for today."),
        ],
        "gold": [
            {"id": "airflow", "kind": "fact", "must": ["airflow 2.9", "snowflake"]},
            {"id": "schedule", "kind": "fact", "must": ["02:00 utc"]},
            {"id": "unique", "kind": "preference", "must": ["unique test", "primary key"]},
            {"id": "materialized", "kind": "decision", "must": ["staging models are views", "marts are tables"]},
        ],
        "noise": ["don't care today", "Enough for today"],
        "secrets": [],
    },
    {
        "name": "v-wisla-02-moves", "order": 452, "project": "wisla-dwh", "cwd": "/home/piotr/wisla-dwh",
        "session": "f3a4b5c6-0152-4eee-8fff-000000000452", "start": "2026-12-03T08:10:00",
        "turns": [
            ("u", "Changes. The ingest DAG runs at 03:30 UTC now, the source system has maintenance until 3."),
            ("a", "I'll move the schedule to `30 3 * * *` and keep dbt triggered by the ingest DAG's success."),
            ("u", "And we upgraded Airflow to 2.10 on Monday."),
            ("a", "Noted: the provider pins in `requirements.txt` follow 2.10's constraints file."),
            ("u", "Snowflake password for the loader user is Wisla#Load2026!x, goes to the Airflow connection only."),
            ("a", "I'll set it on the `snowflake_loader` connection, nothing in the repository."),
            ("u", "Weather is terrible here. Ok, done."),
        ],
        "gold": [
            {"id": "schedule", "kind": "fact", "must": ["03:30 utc"]},
            {"id": "airflow", "kind": "fact", "must": ["airflow to 2.10"]},
        ],
        "noise": ["Weather is terrible", "Ok, done"],
        "secrets": ["Wisla#Load2026!x"],
        "updates": [["v-wisla-01-orders:schedule", "v-wisla-02-moves:schedule"], ["v-wisla-01-orders:airflow", "v-wisla-02-moves:airflow"]],
    },
    {
        "name": "v-tallow-01-watch", "order": 453, "project": "tallow", "cwd": "/home/ritz/src/tallow",
        "session": "f3a4b5c6-0153-4eee-8fff-000000000453", "start": "2026-11-22T23:40:00",
        "turns": [
            ("u", "tallow = dotfile sync cli, go 1.22, cobra for cmds"),
            ("a", "", {"tools": [("Bash", {"command": "go build ./... && go test ./..."}, GO_BUILD)]}),
            ("a", "`TestWatch` fails: it expects one event per write and gets two."),
            ("u", "ya thats the bug. editors do write+rename so fsnotify fires twice"),
            ("a", "Fixed: the cause is that editors save with a write followed by a rename, so fsnotify reports two events. "
                  "I debounce events per path for 50 ms in `internal/watch`; `TestWatch` passes."),
            ("u", "nice nice"),
            ("u", "relases via goreleaser, binarys on github releases"),
            ("u", "dont add deps without asking me first pls, keep it small"),
            ("u", "its 1am lol, gn"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["go 1.22", "cobra"]},
            {"id": "debounce", "kind": "bugfix", "must": ["rename", "debounce"]},
            {"id": "release", "kind": "fact", "must": ["goreleaser"]},
            {"id": "deps", "kind": "preference", "must": ["dont add deps"]},
        ],
        "noise": ["nice nice", "its 1am"],
        "secrets": [],
    },
    {
        "name": "v-tallow-02-release", "order": 454, "project": "tallow", "cwd": "/home/ritz/src/tallow",
        "session": "f3a4b5c6-0154-4eee-8fff-000000000454", "start": "2026-12-03T22:55:00",
        "turns": [
            ("u", "bumped go to 1.23 btw"),
            ("a", "", {"tools": [("Bash", {"command": "goreleaser release --clean"}, GORELEASER)]}),
            ("a", "Release built and published in 41 s."),
            ("u", "also we switched cobra for urfave/cli, cobra was too heavy"),
            ("a", "I'll port the three commands to `urfave/cli/v2`."),
            ("u", "gh token ghp_R1tzTall0wT0kenAbCdEfGh1234567890xy for the release action, its in repo secrets already"),
            ("u", "k thx"),
        ],
        "gold": [
            {"id": "go", "kind": "fact", "must": ["go to 1.23"]},
            {"id": "cli", "kind": "decision", "must": ["urfave/cli"]},
        ],
        "noise": ["k thx"],
        "secrets": ["ghp_R1tzTall0wT0kenAbCdEfGh1234567890xy"],
        "updates": [["v-tallow-01-watch:stack", "v-tallow-02-release:go"]],
    },
]
