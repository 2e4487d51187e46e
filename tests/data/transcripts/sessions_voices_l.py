"""Voices set L (see build_voices.py): more update shapes, written by capture helper H8 on 2026-12-02 —
a Turkish backend developer, an Italian developer who states setup as "key: value" lines, an
Arabic-speaking Flutter developer, a Python maintainer writing like a code review thread, a
Slack-style standup paste, a Norwegian ops developer talking in environment variables. Each second
session changes values of the first in yet other words: "not using anymore X, now Y", "A -> B",
"before was 7", a key: value line restated with a new value, "changed my mind about …", a host moved
"same port", a release day moved; standup chatter and "inshallah" as noise; a scoped pair that must
stay distinct. All twelve files fall in vtune by name hash. Labels written with the conversations,
before any run."""

GO_BUILD = "go build ./...\ngo vet ./...\nok  \tgithub.com/kervanci/ankara/internal/api\t0.318s\nok  \tgithub.com/kervanci/ankara/internal/store\t0.922s\n"
RENDER = "==> Deploying...\n==> Build successful 🎉\n==> Your service is live 🎉\n==> Available at https://ankara-api.onrender.com\n"
PIP = "Successfully installed fastapi-0.115.5 uvicorn-0.32.1 psycopg-3.2.3 redis-5.2.0\n"
FLUTTER = "Launching lib/main.dart on sdk gphone64 x86 64 in debug mode...\n✓ Built build/app/outputs/flutter-apk/app-debug.apk\nSyncing files to device sdk gphone64 x86 64... 1,204ms\n"
GRADLE_ERR = ("FAILURE: Build failed with an exception.\n* What went wrong:\nExecution failed for task ':app:checkDebugAarMetadata'.\n"
              "> Dependency 'androidx.core:core:1.15.0' requires libraries and applications that depend on it to compile against version 35 or later\n")
PYTEST = "........................................................ [ 93%]\n....                                                     [100%]\n60 passed in 2.41s\n"
STANDUP_GIT = "a41c9e2 fix ticket export encoding\n77d01b3 bump vite to 5.4\n09e5a1f staging: new url\n"
NC = "Connection to db2.fjord.internal (10.20.0.14) 5432 port [tcp/postgresql] succeeded!\n"

VOICES_L = [
    {
        "name": "v-ankara-01-start", "order": 403, "project": "ankara", "cwd": "/home/emre/go/src/ankara",
        "session": "d1e2f3a4-0103-4ccc-8ddd-000000000403", "start": "2026-11-11T09:00:00",
        "turns": [
            ("u", "Merhaba. Ankara is the booking API for our bus company, written in Go 1.23 with chi router and sqlc. Database is PostgreSQL 16."),
            ("a", "", {"tools": [("Bash", {"command": "go build ./... && go test ./..."}, GO_BUILD)]}),
            ("a", "Builds and tests pass."),
            ("u", "We are hosting on Heroku, one web dyno and one worker dyno."),
            ("u", "The API listens on port 8080 in the container."),
            ("a", "Noted."),
            ("u", "Our product manager is Burak, he approves every release."),
            ("u", "Teşekkürler, see you tomorrow."),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["go 1.23", "sqlc"]},
            {"id": "db", "kind": "fact", "must": ["postgresql 16"]},
            {"id": "host", "kind": "fact", "must": ["heroku"]},
            {"id": "port", "kind": "fact", "must": ["port 8080"]},
            {"id": "pm", "kind": "fact", "must": ["burak", "approves every release"]},
        ],
        "noise": ["Teşekkürler", "see you tomorrow"],
        "secrets": [],
    },
    {
        "name": "v-ankara-02-changes", "order": 404, "project": "ankara", "cwd": "/home/emre/go/src/ankara",
        "session": "d1e2f3a4-0104-4ccc-8ddd-000000000404", "start": "2026-11-21T09:20:00",
        "turns": [
            ("u", "Some news. We are not using anymore Heroku, now we are on Render."),
            ("a", "", {"tools": [("Bash", {"command": "render deploys list --service ankara-api | head -4"}, RENDER)]}),
            ("a", "The last Render deploy is live."),
            ("u", "Because of Render the port changed: 8080 -> 10000."),
            ("a", "Updated `PORT` in the Dockerfile to 10000."),
            ("u", "Also Burak left the company, now Elif is our product manager and she approves the releases."),
            ("a", "Noted."),
            ("u", "The render api key is rnd_Xq7LmP2vK9tR4sW8yZ1aB3cD, don't save it please."),
            ("a", "I won't store it; the CLI reads it from `RENDER_API_KEY`."),
        ],
        "gold": [
            {"id": "host", "kind": "decision", "must": ["render"]},
            {"id": "port", "kind": "fact", "must": ["10000"]},
            {"id": "pm", "kind": "fact", "must": ["elif", "product manager"]},
        ],
        "noise": ["left the company", "Some news"],
        "secrets": ["rnd_Xq7LmP2vK9tR4sW8yZ1aB3cD"],
        "updates": [["v-ankara-01-start:host", "v-ankara-02-changes:host"],
                    ["v-ankara-01-start:port", "v-ankara-02-changes:port"],
                    ["v-ankara-01-start:pm", "v-ankara-02-changes:pm"]],
    },
    {
        "name": "v-pergola-01-setup", "order": 405, "project": "pergola", "cwd": "/home/giulia/pergola",
        "session": "d1e2f3a4-0105-4ccc-8ddd-000000000405", "start": "2026-11-12T14:00:00",
        "turns": [
            ("u", "Ciao! pergola is the backend for a garden-center chain, python 3.12 with fastapi. the setup:\ndb: postgres 15\ncache: redis 7\nqueue: rabbitmq\nemail: sendgrid"),
            ("a", "", {"tools": [("Bash", {"command": "pip install -r requirements.txt"}, PIP)]}),
            ("a", "Dependencies installed."),
            ("u", "the prices are always with VAT included, 22%, never show prices without VAT to customers"),
            ("a", "Understood, prices are stored and shown gross (22% VAT)."),
            ("u", "grazie mille"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["python 3.12", "fastapi"]},
            {"id": "db", "kind": "fact", "must": ["postgres 15"]},
            {"id": "cache", "kind": "fact", "must": ["redis 7"]},
            {"id": "queue", "kind": "fact", "must": ["rabbitmq"]},
            {"id": "email", "kind": "fact", "must": ["sendgrid"]},
            {"id": "vat", "kind": "preference", "must": ["vat included", "22%"]},
        ],
        "noise": ["grazie mille", "Successfully installed"],
        "secrets": [],
    },
    {
        "name": "v-pergola-02-config", "order": 406, "project": "pergola", "cwd": "/home/giulia/pergola",
        "session": "d1e2f3a4-0106-4ccc-8ddd-000000000406", "start": "2026-11-26T10:30:00",
        "turns": [
            ("u", "ciao, the setup changed a bit:\ndb: postgres 17\nemail: postmark\nthe rest is the same"),
            ("a", "I'll update `docker-compose.yml` to postgres:17 and swap the SendGrid client for Postmark."),
            ("u", "postmark server token: 5f2d1c0b-9a8e-4d7c-b6a5-f4e3d2c1b0a9"),
            ("a", "It goes into the secrets manager as `POSTMARK_TOKEN`, not into the repo."),
            ("u", "perfetto"),
        ],
        "gold": [
            {"id": "db", "kind": "fact", "must": ["postgres 17"]},
            {"id": "email", "kind": "fact", "must": ["postmark"]},
        ],
        "noise": ["the rest is the same", "perfetto"],
        "secrets": ["5f2d1c0b-9a8e-4d7c-b6a5-f4e3d2c1b0a9"],
        "updates": [["v-pergola-01-setup:db", "v-pergola-02-config:db"],
                    ["v-pergola-01-setup:email", "v-pergola-02-config:email"]],
        "distinct": [["v-pergola-01-setup:cache", "v-pergola-01-setup:queue"]],
    },
    {
        "name": "v-qadi-01-intro", "order": 407, "project": "qadi", "cwd": "/Users/omar/dev/qadi",
        "session": "d1e2f3a4-0107-4ccc-8ddd-000000000407", "start": "2026-11-13T19:00:00",
        "turns": [
            ("u", "Salam. Qadi is app for booking lawyers appointments, Flutter 3.24 for Android and iOS."),
            ("a", "", {"tools": [("Bash", {"command": "flutter run"}, FLUTTER)]}),
            ("a", "The app runs on the emulator."),
            ("u", "The app support Arabic and English, RTL layout is a must on every screen."),
            ("u", "We using Firebase Auth for login with phone number."),
            ("a", "OK, phone sign-in through Firebase Auth."),
            ("u", "Minimum Android is 7 (API 24)."),
            ("u", "Inshallah we launch next month."),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["flutter 3.24"]},
            {"id": "rtl", "kind": "preference", "must": ["rtl", "every screen"]},
            {"id": "auth", "kind": "fact", "must": ["firebase auth"]},
            {"id": "minsdk", "kind": "fact", "must": ["minimum android is 7"]},
        ],
        "noise": ["Inshallah", "launch next month"],
        "secrets": [],
    },
    {
        "name": "v-qadi-02-later", "order": 408, "project": "qadi", "cwd": "/Users/omar/dev/qadi",
        "session": "d1e2f3a4-0108-4ccc-8ddd-000000000408", "start": "2026-11-27T20:10:00",
        "turns": [
            ("u", "Salam again. We leave Firebase Auth, now the login is with Supabase Auth, it is cheaper for SMS in Egypt."),
            ("a", "I'll replace `firebase_auth` with `supabase_flutter` and move the phone OTP flow."),
            ("u", "The build is failing after I updated the packages."),
            ("a", "", {"tools": [("Bash", {"command": "flutter build apk"}, GRADLE_ERR)]}),
            ("a", "The build fails because androidx.core 1.15 requires compileSdk 35 and the project compiles against 34. I set `compileSdk = 35` in `android/app/build.gradle`, and the build passes."),
            ("u", "Thanks. Also minimum Android is 8 now, before was 7, the new camera package needs it."),
            ("a", "Set `minSdk = 26`."),
        ],
        "gold": [
            {"id": "auth", "kind": "decision", "must": ["supabase auth"]},
            {"id": "sdk", "kind": "bugfix", "must": ["compilesdk = 35"]},
            {"id": "minsdk", "kind": "fact", "must": ["minimum android is 8"]},
        ],
        "noise": ["cheaper for SMS in Egypt", "FAILURE: Build failed"],
        "secrets": [],
        "updates": [["v-qadi-01-intro:auth", "v-qadi-02-later:auth"],
                    ["v-qadi-01-intro:minsdk", "v-qadi-02-later:minsdk"]],
    },
    {
        "name": "v-loomis-01-review", "order": 409, "project": "loomis", "cwd": "/home/priya/src/loomis",
        "session": "d1e2f3a4-0109-4ccc-8ddd-000000000409", "start": "2026-11-14T15:00:00",
        "turns": [
            ("u", "Review notes for the loomis 2.0 branch (loomis is our open-source HTTP client library):\n\nRe logging: we standardize on structlog. No print() in library code, ever.\n\nRe retries: the retry policy is 3 attempts with a fixed 2s delay.\n\nRe typing: the public API is fully typed and mypy --strict must pass."),
            ("a", "", {"tools": [("Bash", {"command": "pytest -q"}, PYTEST)]}),
            ("a", "Tests pass. I'll replace the three `print()` calls in `loomis/transport.py` with structlog and add the retry policy to `RetryConfig` defaults."),
            ("u", "+1, thanks. Supported Pythons are 3.10 to 3.13."),
            ("a", "Added 3.13 to the CI matrix."),
        ],
        "gold": [
            {"id": "logging", "kind": "decision", "must": ["structlog"]},
            {"id": "print", "kind": "preference", "must": ["no print()", "library code"]},
            {"id": "retry", "kind": "fact", "must": ["retry policy", "3 attempts"]},
            {"id": "typing", "kind": "preference", "must": ["mypy --strict"]},
            {"id": "pythons", "kind": "fact", "must": ["3.10", "3.13"]},
        ],
        "noise": ["60 passed", "+1, thanks"],
        "secrets": [],
    },
    {
        "name": "v-loomis-02-review", "order": 410, "project": "loomis", "cwd": "/home/priya/src/loomis",
        "session": "d1e2f3a4-0110-4ccc-8ddd-000000000410", "start": "2026-11-22T16:30:00",
        "turns": [
            ("u", "Changed my mind about the retry policy: 5 attempts with exponential backoff, not 3 with a fixed delay."),
            ("a", "Updated `RetryConfig` to 5 attempts with exponential backoff (base 0.5s, cap 30s)."),
            ("u", "Re logging follow-up: structlog stays, and the JSON renderer is used only in production, console renderer in dev."),
            ("a", "Done, the renderer is picked from `LOOMIS_ENV`."),
            ("u", "Nit: dropping 3.10, supported Pythons are 3.11 to 3.13 from the 2.1 release."),
            ("a", "Removed 3.10 from the matrix and set `requires-python = \">=3.11\"`."),
        ],
        "gold": [
            {"id": "retry", "kind": "fact", "must": ["5 attempts", "exponential backoff"]},
            {"id": "json", "kind": "preference", "must": ["json renderer", "production"]},
            {"id": "pythons", "kind": "fact", "must": ["3.11", "3.13"]},
        ],
        "noise": ["Changed my mind"],
        "secrets": [],
        "updates": [["v-loomis-01-review:retry", "v-loomis-02-review:retry"],
                    ["v-loomis-01-review:pythons", "v-loomis-02-review:pythons"]],
        "distinct": [["v-loomis-01-review:logging", "v-loomis-02-review:json"]],
    },
    {
        "name": "v-tramway-01-kickoff", "order": 411, "project": "tramway", "cwd": "/home/sam/work/tramway",
        "session": "d1e2f3a4-0111-4ccc-8ddd-000000000411", "start": "2026-11-16T09:30:00",
        "turns": [
            ("u", "pasting from slack so you have context:\n\n> **sam** tramway = the ticketing web app for the city trams\n> **sam** vue 3 + vite, api is laravel\n> **noor** staging lives at https://stg.tramway.city\n> **sam** release train is every other thursday\n> **noor** lol the coffee machine is broken again"),
            ("a", "Thanks. I see a Vue 3 + Vite front end talking to a Laravel API."),
            ("u", "yep. and e2e tests are playwright, they run on every PR"),
            ("a", "", {"tools": [("Bash", {"command": "git log --oneline -3"}, STANDUP_GIT)]}),
            ("a", "The last commits fixed the ticket export and bumped Vite."),
            ("u", "ok thx, standup in 5"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["vue 3", "laravel"]},
            {"id": "staging", "kind": "fact", "must": ["stg.tramway.city"]},
            {"id": "release", "kind": "fact", "must": ["release train", "every other thursday"]},
            {"id": "e2e", "kind": "fact", "must": ["playwright", "every pr"]},
        ],
        "noise": ["coffee machine", "standup in 5"],
        "secrets": [],
    },
    {
        "name": "v-tramway-02-standup", "order": 412, "project": "tramway", "cwd": "/home/sam/work/tramway",
        "session": "d1e2f3a4-0112-4ccc-8ddd-000000000412", "start": "2026-11-25T09:15:00",
        "turns": [
            ("u", "standup notes:\n- yesterday: finished the refund flow\n- today: the seat map\n- blockers: none\n\nalso the staging url changed to https://staging.tramway.city"),
            ("a", "I'll update the Playwright base URL for staging."),
            ("u", "and the release train moved to tuesdays, still every two weeks"),
            ("a", "Noted."),
            ("u", "ty"),
        ],
        "gold": [
            {"id": "staging", "kind": "fact", "must": ["staging.tramway.city"]},
            {"id": "release", "kind": "fact", "must": ["release train", "tuesdays"]},
        ],
        "noise": ["finished the refund flow", "blockers: none", "the seat map"],
        "secrets": [],
        "updates": [["v-tramway-01-kickoff:staging", "v-tramway-02-standup:staging"],
                    ["v-tramway-01-kickoff:release", "v-tramway-02-standup:release"]],
    },
    {
        "name": "v-fjord-01-env", "order": 413, "project": "fjord", "cwd": "/srv/fjord",
        "session": "d1e2f3a4-0113-4ccc-8ddd-000000000413", "start": "2026-11-17T08:00:00",
        "turns": [
            ("u", "Hei. fjord is the ferry schedule service. DATABASE_URL points to db1.fjord.internal:5432, REDIS_URL to cache.fjord.internal:6379."),
            ("a", "Got it."),
            ("u", "LOG_LEVEL is info in prod and debug in staging."),
            ("u", "We deploy with ansible from the ops repo, never by hand on the servers."),
            ("a", "OK: Ansible from the ops repo only."),
            ("u", "the db password is Fj0rd-Prod-2026!, it is in vault under secret/fjord/db"),
            ("a", "I'll read it from Vault at deploy time."),
            ("u", "Takk!"),
        ],
        "gold": [
            {"id": "db", "kind": "fact", "must": ["db1.fjord.internal"]},
            {"id": "redis", "kind": "fact", "must": ["cache.fjord.internal"]},
            {"id": "logprod", "kind": "fact", "must": ["log_level", "info in prod"]},
            {"id": "deploy", "kind": "preference", "must": ["ansible", "never by hand"]},
        ],
        "noise": ["Takk"],
        "secrets": ["Fj0rd-Prod-2026!"],
    },
    {
        "name": "v-fjord-02-later", "order": 414, "project": "fjord", "cwd": "/srv/fjord",
        "session": "d1e2f3a4-0114-4ccc-8ddd-000000000414", "start": "2026-11-28T08:40:00",
        "turns": [
            ("u", "Hei. The database moved to db2.fjord.internal, same port."),
            ("a", "", {"tools": [("Bash", {"command": "nc -zv db2.fjord.internal 5432"}, NC)]}),
            ("a", "db2 answers on 5432. I updated `DATABASE_URL` in the Ansible vars."),
            ("u", "And LOG_LEVEL in staging is info now too, debug was too noisy."),
            ("a", "Changed the staging `LOG_LEVEL` to info."),
            ("u", "Takk, that was all."),
        ],
        "gold": [
            {"id": "db", "kind": "fact", "must": ["db2.fjord.internal"]},
            {"id": "logstaging", "kind": "fact", "must": ["log_level", "staging", "info"]},
        ],
        "noise": ["debug was too noisy", "that was all"],
        "secrets": [],
        "updates": [["v-fjord-01-env:db", "v-fjord-02-later:db"]],
        "distinct": [["v-fjord-01-env:logprod", "v-fjord-02-later:logstaging"], ["v-fjord-01-env:redis", "v-fjord-02-later:db"]],
    },
]
