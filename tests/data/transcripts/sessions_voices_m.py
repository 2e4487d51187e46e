"""Voices set M (see build_voices.py), written by capture helper H7 on 2026-12-03 in voices the
earlier sets lack: a German developer who switches language mid-sentence, a Hinglish-writing shop
developer, a user dictating by voice (no punctuation, fillers, run-on), a markdown-heavy planner
(headers, nested bullets, bold keys), an emoji-bullet terse indie developer, a Chinese-English
mixed writer. Each second session changes what the first stated, several times two values in one
sentence whose old values were stated apart (each must supersede its own memory); secrets in prose;
reasons, feelings and status as noise. Split by name hash as every voices set (no name chosen for
its split). Labels written with the conversations, before any capture run."""

NEXT_BUILD = ("> kaffee-storefront@1.3.0 build\n> next build\n\n  ▲ Next.js 14.2.5\n   Creating an optimized production build ...\n"
              " ✓ Compiled successfully\n ✓ Generating static pages (24/24)\nRoute (app)                Size     First Load JS\n"
              "┌ ○ /                      5.1 kB         96.3 kB\n└ ○ /produkte              3.9 kB         95.1 kB\n")
COOLIFY = "Deployment queued.\n[2026-11-30 10:02:11] Building docker image...\n[2026-11-30 10:03:40] Container kaffee-backend started\n[2026-11-30 10:03:52] Healthcheck passed\n"
PNPM_DEV = ("> dhaba-pos@0.9.2 dev\n> next dev\n\n  ▲ Next.js 14.1.0\n  - Local:        http://localhost:3000\n ✓ Ready in 2.3s\n"
            " ○ Compiling /orders ...\n ✓ Compiled /orders in 1.8s (612 modules)\n")
SUPA_ERR = ('{"code":"42501","details":null,"hint":null,"message":"new row violates row-level security policy for table \\"orders\\""}\n'
            "POST https://xyzcompany.supabase.co/rest/v1/orders 403 (Forbidden)\n")
SCRAPY = ("2026-11-20 06:00:03 [scrapy.core.engine] INFO: Spider opened\n2026-11-20 06:00:03 [scrapy.extensions.logstats] INFO: Crawled 0 pages\n"
          "2026-11-20 06:14:51 [scrapy.statscollectors] INFO: Dumping Scrapy stats:\n{'item_scraped_count': 18211, 'response_received_count': 18304,\n"
          " 'downloader/response_status_count/429': 93, 'finish_reason': 'finished'}\n")
CH_QUERY = "┌─count()─┐\n│  912044 │\n└─────────┘\n1 row in set. Elapsed: 0.004 sec.\n"
GRADLE = ("> Task :app:compileDebugKotlin\n> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 41s\n38 actionable tasks: 12 executed, 26 up-to-date\n")
PYTEST = "tests/test_sync.py ............                                [ 60%]\ntests/test_export.py ........                               [100%]\n\n20 passed in 1.92s\n"
GODOT = ("Godot Engine v4.3.stable.official.77dcf97d8 - https://godotengine.org\nVulkan 1.3.274 - Forward+ - Using Device #0: NVIDIA GeForce RTX 3060\n"
         "WARNING: res://scenes/boss.tscn:12 - Node 'Hitbox' has no shape\n")
STEAM_UP = "Uploading content...\nSuccessfully uploaded depot 2841021 build 15523077\nSet build live on branch 'beta'\n"
GO_TEST = ("ok  \tgithub.com/lanqiao/yunpan/internal/store\t0.412s\nok  \tgithub.com/lanqiao/yunpan/internal/api\t1.087s\n"
           "--- FAIL: TestUploadResume (0.31s)\n    upload_test.go:88: offset = 0, want 4194304\nFAIL\n")
REDIS_INFO = "# Server\nredis_version:7.2.4\nredis_mode:standalone\ntcp_port:6380\nuptime_in_days:41\n"

VOICES_M = [
    {
        "name": "v-kaffee-01-shop", "order": 415, "project": "kaffee", "cwd": "/home/jonas/dev/kaffee",
        "session": "d1e2f3a4-0115-4ccc-8ddd-000000000415", "start": "2026-11-12T09:10:00",
        "turns": [
            ("u", "Moin! Also, kaffee ist unser Webshop für die Rösterei. Backend is Medusa 2.1, the storefront is Next.js 14."),
            ("a", "", {"tools": [("Bash", {"command": "pnpm --filter storefront build"}, NEXT_BUILD)]}),
            ("a", "The storefront builds."),
            ("u", "Wir laufen auf Node 20 everywhere, also in CI."),
            ("u", "Deployment geht über Coolify auf einem Hetzner CX32, das ist halt billiger als Vercel."),
            ("a", "", {"tools": [("Bash", {"command": "coolify deploy kaffee-backend"}, COOLIFY)]}),
            ("a", "Deployed; the healthcheck passes."),
            ("u", "Wichtig: prices always brutto, mit 7% MwSt für Kaffee. Never show netto prices im Shop."),
            ("a", "Understood: gross prices everywhere, 7% VAT on coffee."),
            ("u", "Der Stripe key ist sk_live_51Kf8ZpQx2LmN7vR4tY9wB3cD, bitte nicht irgendwo speichern."),
            ("a", "I won't store it; it goes into `STRIPE_API_KEY` in Coolify's environment."),
            ("u", "Super, danke. Bis morgen!"),
        ],
        "gold": [
            {"id": "medusa", "kind": "fact", "must": ["medusa 2.1"]},
            {"id": "node", "kind": "fact", "must": ["node 20"]},
            {"id": "deploy", "kind": "fact", "must": ["coolify", "hetzner"]},
            {"id": "vat", "kind": "preference", "must": ["brutto", "7%"]},
        ],
        "noise": ["Bis morgen", "billiger als Vercel", "Moin"],
        "secrets": ["sk_live_51Kf8ZpQx2LmN7vR4tY9wB3cD"],
    },
    {
        "name": "v-kaffee-02-update", "order": 416, "project": "kaffee", "cwd": "/home/jonas/dev/kaffee",
        "session": "d1e2f3a4-0116-4ccc-8ddd-000000000416", "start": "2026-11-30T10:00:00",
        "turns": [
            ("u", "Hallo again. Kurzes Update: we upgraded Medusa to 2.4 and Node to 22 last week."),
            ("a", "I'll bump `engines.node` to 22 and the Medusa packages to 2.4 in the lockfile."),
            ("u", "Und wir haben den Hetzner CX32 durch einen CX42 ersetzt, the CX32 was at 90% RAM all the time."),
            ("a", "Noted: the Coolify server is now a CX42."),
            ("u", "Ach so, the newsletter goes with Brevo now, nicht mehr Mailchimp."),
            ("a", "Switched the subscriber sync to Brevo's contacts API."),
            ("u", "Passt, danke dir!"),
        ],
        "gold": [
            {"id": "medusa", "kind": "fact", "must": ["medusa", "2.4"]},
            {"id": "node", "kind": "fact", "must": ["node", "22"]},
            {"id": "server", "kind": "fact", "must": ["cx42"]},
            {"id": "newsletter", "kind": "decision", "must": ["brevo"]},
        ],
        "noise": ["90% RAM all the time", "Passt, danke"],
        "secrets": [],
        "updates": [["v-kaffee-01-shop:medusa", "v-kaffee-02-update:medusa"],
                    ["v-kaffee-01-shop:node", "v-kaffee-02-update:node"],
                    ["v-kaffee-01-shop:deploy", "v-kaffee-02-update:server"]],
    },
    {
        "name": "v-dhaba-01-pos", "order": 417, "project": "dhaba-pos", "cwd": "/home/rohit/work/dhaba-pos",
        "session": "d1e2f3a4-0117-4ccc-8ddd-000000000417", "start": "2026-11-13T21:00:00",
        "turns": [
            ("u", "bhai ek POS bana rahe hain for my uncle's dhaba. stack: Next.js 14 + Supabase, hosting Vercel pe hai."),
            ("a", "", {"tools": [("Bash", {"command": "pnpm dev"}, PNPM_DEV)]}),
            ("a", "The dev server is up on port 3000."),
            ("u", "orders table me RLS on hai, har waiter sirf apne orders dekhega, yeh rule hai."),
            ("u", "GST 5% lagta hai restaurant pe, bill me alag line me dikhana hai always."),
            ("a", "OK: GST 5% as its own line on every bill."),
            ("u", "ek problem hai, jab waiter order save karta hai to error aata hai"),
            ("a", "", {"thinking": "403 from PostgREST with 42501: the insert policy is missing or does not match auth.uid().",
                       "tools": [("Bash", {"command": "curl -s -X POST $SUPABASE_URL/rest/v1/orders -d @order.json"}, SUPA_ERR)]}),
            ("a", "The insert fails because the `orders` table has a select policy but no insert policy, so row-level security rejects every new row. I added an insert policy `with check (waiter_id = auth.uid())` and the save now works."),
            ("u", "haan chal gaya, thanks yaar"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["next.js 14", "supabase"]},
            {"id": "host", "kind": "fact", "must": ["vercel"]},
            {"id": "gst", "kind": "preference", "must": ["gst 5%", "alag line"]},
            {"id": "rls", "kind": "bugfix", "must": ["insert policy", "waiter_id = auth.uid()"]},
        ],
        "noise": ["thanks yaar", "chal gaya"],
        "secrets": [],
    },
    {
        "name": "v-dhaba-02-changes", "order": 418, "project": "dhaba-pos", "cwd": "/home/rohit/work/dhaba-pos",
        "session": "d1e2f3a4-0118-4ccc-8ddd-000000000418", "start": "2026-11-27T22:15:00",
        "turns": [
            ("u", "bhai update: Vercel chhod diya, ab Cloudflare Pages pe host kar rahe hain, free tier me ho jata hai."),
            ("a", "I'll add the `@cloudflare/next-on-pages` adapter and a `wrangler.toml`."),
            ("u", "aur GST ab 5% se 12% ho gaya for the AC section, non-AC me 5% hi rahega"),
            ("a", "Two rates then: 12% for AC tables, 5% for non-AC, still on its own bill line."),
            ("u", "supabase service role key hai eyJhbGciOiJIUzI1NiJ9.c2VydmljZV9yb2xl.Zx8Kq2LmNv, isko .env me daal do bas"),
            ("a", "It goes into `.env.local` as `SUPABASE_SERVICE_ROLE_KEY`, which is git-ignored; I won't repeat it anywhere."),
            ("u", "mast hai"),
        ],
        "gold": [
            {"id": "host", "kind": "decision", "must": ["cloudflare pages"]},
            {"id": "gst_ac", "kind": "fact", "must": ["12%", "ac section"]},
        ],
        "noise": ["free tier me ho jata hai", "mast hai"],
        "secrets": ["eyJhbGciOiJIUzI1NiJ9.c2VydmljZV9yb2xl.Zx8Kq2LmNv"],
        "updates": [["v-dhaba-01-pos:host", "v-dhaba-02-changes:host"]],
    },
    {
        "name": "v-pricewatch-01-dictated", "order": 419, "project": "pricewatch", "cwd": "/home/tanya/pricewatch",
        "session": "d1e2f3a4-0119-4ccc-8ddd-000000000419", "start": "2026-11-14T07:30:00",
        "turns": [
            ("u", "ok so um this is pricewatch it's the scraper thing for grocery prices and uh basically it's a scrapy project "
                  "python 3.11 and it runs every six hours from a cron on the hetzner box and the results go into clickhouse "
                  "24.8 which is really fast by the way like super fast"),
            ("a", "", {"tools": [("Bash", {"command": "tail -5 logs/crawl.log"}, SCRAPY)]}),
            ("a", "The last crawl scraped 18,211 items; 93 responses were HTTP 429."),
            ("u", "yeah the 429s so um the rule is we never go above two requests per second per shop because they block us otherwise "
                  "that happened with lidl last year it was a whole thing"),
            ("a", "I'll set `DOWNLOAD_DELAY = 0.5` and `CONCURRENT_REQUESTS_PER_DOMAIN = 1`."),
            ("u", "right and the prices are stored in cents as integers never floats"),
            ("a", "", {"tools": [("Bash", {"command": "clickhouse-client -q 'SELECT count() FROM prices'"}, CH_QUERY)]}),
            ("a", "The `prices` table has 912,044 rows, `price_cents` is UInt32."),
            ("u", "cool cool ok I gotta go pick up my kid talk later"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["scrapy", "python 3.11"]},
            {"id": "schedule", "kind": "fact", "must": ["every six hours"]},
            {"id": "db", "kind": "fact", "must": ["clickhouse", "24.8"]},
            {"id": "rate", "kind": "preference", "must": ["never go above two requests per second"]},
            {"id": "cents", "kind": "preference", "must": ["cents", "never floats"]},
        ],
        "noise": ["pick up my kid", "whole thing", "super fast"],
        "secrets": [],
    },
    {
        "name": "v-pricewatch-02-dictated", "order": 420, "project": "pricewatch", "cwd": "/home/tanya/pricewatch",
        "session": "d1e2f3a4-0120-4ccc-8ddd-000000000420", "start": "2026-11-29T07:45:00",
        "turns": [
            ("u", "morning so uh two things changed the crawl runs every three hours now not six and we moved clickhouse to 24.10 "
                  "on the new box"),
            ("a", "I'll change the cron to `0 */3 * * *` and update the ClickHouse image tag to 24.10."),
            ("u", "and the new box is called scrape2.pricewatch.internal the old one is gone"),
            ("a", "Updated the inventory to `scrape2.pricewatch.internal`."),
            ("u", "oh and the clickhouse password is tq-8841-walnut-Fog just put it in the vault thing"),
            ("a", "It goes into Vault at `secret/pricewatch/clickhouse`; I won't write it elsewhere."),
            ("u", "thanks you're a lifesaver honestly"),
        ],
        "gold": [
            {"id": "schedule", "kind": "fact", "must": ["every three hours"]},
            {"id": "db", "kind": "fact", "must": ["clickhouse", "24.10"]},
            {"id": "host", "kind": "fact", "must": ["scrape2.pricewatch.internal"]},
        ],
        "noise": ["lifesaver", "the old one is gone"],
        "secrets": ["tq-8841-walnut-Fog"],
        "updates": [["v-pricewatch-01-dictated:schedule", "v-pricewatch-02-dictated:schedule"],
                    ["v-pricewatch-01-dictated:db", "v-pricewatch-02-dictated:db"]],
    },
    {
        "name": "v-fieldnote-01-plan", "order": 421, "project": "fieldnote", "cwd": "/Users/amara/code/fieldnote",
        "session": "d1e2f3a4-0121-4ccc-8ddd-000000000421", "start": "2026-11-15T13:00:00",
        "turns": [
            ("u", "## Context\nFieldnote is an offline-first Android app for soil surveyors.\n\n## Stack\n- **Language:** Kotlin 2.0\n"
                  "- **UI:** Jetpack Compose\n- **Local DB:** Room, with SQLCipher\n- **Sync:** WorkManager, every 30 minutes on Wi-Fi\n\n"
                  "## Rules\n- all GPS points are stored in WGS84\n- never block the UI thread on sync\n\n## Today\n- fix the export crash\n- maybe dark mode?"),
            ("a", "", {"tools": [("Bash", {"command": "./gradlew assembleDebug"}, GRADLE)]}),
            ("a", "Debug build is green. Looking at the export crash next."),
            ("u", "### Export crash\n- happens when a survey has more than 500 points\n- stack trace says `TransactionTooLargeException`"),
            ("a", "", {"thinking": "Passing the whole survey through an Intent extra: Binder limit 1 MB.",
                       "tools": [("Grep", {"pattern": "putExtra", "path": "app/src"}, "ExportActivity.kt:41:    intent.putExtra(\"survey\", survey)\n")]}),
            ("a", "The crash comes from passing the whole survey as a Parcelable Intent extra; above ~500 points it exceeds the 1 MB Binder limit and throws `TransactionTooLargeException`. I now pass only the survey id and the export screen loads the points from Room."),
            ("u", "- ✔ works\n- thanks!"),
        ],
        "gold": [
            {"id": "kotlin", "kind": "fact", "must": ["kotlin 2.0"]},
            {"id": "db", "kind": "fact", "must": ["room", "sqlcipher"]},
            {"id": "sync", "kind": "fact", "must": ["workmanager", "every 30 minutes"]},
            {"id": "wgs84", "kind": "preference", "must": ["gps points", "wgs84"]},
            {"id": "ui", "kind": "preference", "must": ["never block the ui thread"]},
            {"id": "export", "kind": "bugfix", "must": ["transactiontoolargeexception", "survey id"]},
        ],
        "noise": ["maybe dark mode", "fix the export crash"],
        "secrets": [],
    },
    {
        "name": "v-fieldnote-02-plan", "order": 422, "project": "fieldnote", "cwd": "/Users/amara/code/fieldnote",
        "session": "d1e2f3a4-0122-4ccc-8ddd-000000000422", "start": "2026-12-01T14:00:00",
        "turns": [
            ("u", "## Changes since last time\n- **Sync:** now every 15 minutes, and also on mobile data\n- **Local DB:** Room stays, "
                  "SQLCipher dropped (the devices are encrypted anyway)\n\n## Open\n- dark mode, still not sure"),
            ("a", "I'll set the periodic work to 15 minutes with `NetworkType.CONNECTED` and remove the SQLCipher factory."),
            ("u", "## New rule\n- exports are GeoJSON only, no more KML"),
            ("a", "", {"tools": [("Bash", {"command": "./gradlew test"}, "BUILD SUCCESSFUL in 22s\n")]}),
            ("a", "Tests pass; the KML writer is removed."),
            ("u", "👍"),
        ],
        "gold": [
            {"id": "sync", "kind": "fact", "must": ["every 15 minutes"]},
            {"id": "nocipher", "kind": "decision", "must": ["sqlcipher dropped"]},
            {"id": "geojson", "kind": "preference", "must": ["geojson only"]},
        ],
        "noise": ["still not sure", "encrypted anyway"],
        "secrets": [],
        "updates": [["v-fieldnote-01-plan:sync", "v-fieldnote-02-plan:sync"],
                    ["v-fieldnote-01-plan:db", "v-fieldnote-02-plan:nocipher"]],
    },
    {
        "name": "v-hollowkite-01-emoji", "order": 423, "project": "hollowkite", "cwd": "/home/kit/games/hollowkite",
        "session": "d1e2f3a4-0123-4ccc-8ddd-000000000423", "start": "2026-11-16T23:00:00",
        "turns": [
            ("u", "hollowkite = my metroidvania 🎮\n✅ godot 4.2\n✅ gdscript only\n🚫 no c#\n🎯 60 fps on steam deck"),
            ("a", "", {"tools": [("Bash", {"command": "godot --headless --quit"}, GODOT)]}),
            ("a", "The project opens; `boss.tscn` has a Hitbox with no shape."),
            ("u", "ugh 😩 ok fix pls"),
            ("a", "I gave `Hitbox` a `RectangleShape2D` of 48×64; the warning is gone."),
            ("u", "🔥🔥 ty\nbuilds go to steam beta branch first, always"),
            ("a", "", {"tools": [("Bash", {"command": "steamcmd +run_app_build build/app_build.vdf"}, STEAM_UP)]}),
            ("a", "Uploaded build 15523077 to the beta branch."),
            ("u", "gn 😴"),
        ],
        "gold": [
            {"id": "godot", "kind": "fact", "must": ["godot 4.2"]},
            {"id": "gdscript", "kind": "preference", "must": ["gdscript only"]},
            {"id": "fps", "kind": "fact", "must": ["60 fps", "steam deck"]},
            {"id": "beta", "kind": "preference", "must": ["beta branch first"]},
        ],
        "noise": ["ugh", "gn", "ty"],
        "secrets": [],
    },
    {
        "name": "v-hollowkite-02-emoji", "order": 424, "project": "hollowkite", "cwd": "/home/kit/games/hollowkite",
        "session": "d1e2f3a4-0124-4ccc-8ddd-000000000424", "start": "2026-12-02T22:30:00",
        "turns": [
            ("u", "🆙 godot 4.3 now\n🎯 target is 40 fps on deck, 60 was too ambitious lol"),
            ("a", "I'll switch the export templates to 4.3 and set the Deck profile's frame cap to 40."),
            ("u", "steamworks web api key: 7F3A9C2E11B84D0FA6E5C3B2D1908F7E dont commit it"),
            ("a", "It goes into the CI secret `STEAM_WEB_API_KEY`; nothing in the repo."),
            ("u", "💯"),
        ],
        "gold": [
            {"id": "godot", "kind": "fact", "must": ["godot 4.3"]},
            {"id": "fps", "kind": "fact", "must": ["40 fps"]},
        ],
        "noise": ["too ambitious", "lol"],
        "secrets": ["7F3A9C2E11B84D0FA6E5C3B2D1908F7E"],
        "updates": [["v-hollowkite-01-emoji:godot", "v-hollowkite-02-emoji:godot"],
                    ["v-hollowkite-01-emoji:fps", "v-hollowkite-02-emoji:fps"]],
    },
    {
        "name": "v-yunpan-01-mixed", "order": 425, "project": "yunpan", "cwd": "/home/lanqiao/go/yunpan",
        "session": "d1e2f3a4-0125-4ccc-8ddd-000000000425", "start": "2026-11-17T10:00:00",
        "turns": [
            ("u", "你好。yunpan 是我们的网盘 backend，Go 1.22 写的，storage 用 MinIO。"),
            ("a", "", {"tools": [("Bash", {"command": "go test ./..."}, GO_TEST)]}),
            ("a", "One test fails: `TestUploadResume` restarts at offset 0."),
            ("u", "对，断点续传有 bug，upload resume 总是 from 0 开始"),
            ("a", "", {"thinking": "The resume handler reads the offset header before the session lookup; a cache miss returns 0.",
                       "tools": [("Grep", {"pattern": "Upload-Offset", "path": "internal/api"}, "internal/api/upload.go:57: off := sess.Offset\n")]}),
            ("a", "Resume starts at 0 because the handler looks the upload session up in the in-memory map only, and after a restart the map is empty. I now load the session from Redis when the map misses, and `TestUploadResume` passes."),
            ("u", "好的 👍 Redis 是 7.2，port 6380，不是默认的 6379"),
            ("a", "", {"tools": [("Bash", {"command": "redis-cli -p 6380 info server | head -5"}, REDIS_INFO)]}),
            ("a", "Confirmed: Redis 7.2.4 on port 6380."),
            ("u", "chunk size 固定 4 MB，不要改"),
            ("u", "谢谢，辛苦了"),
        ],
        "gold": [
            {"id": "go", "kind": "fact", "must": ["go 1.22", "minio"]},
            {"id": "resume", "kind": "bugfix", "must": ["redis", "map"]},
            {"id": "redis", "kind": "fact", "must": ["port 6380"]},
            {"id": "chunk", "kind": "preference", "must": ["chunk size", "4 mb"]},
        ],
        "noise": ["辛苦了", "谢谢"],
        "secrets": [],
    },
    {
        "name": "v-yunpan-02-mixed", "order": 426, "project": "yunpan", "cwd": "/home/lanqiao/go/yunpan",
        "session": "d1e2f3a4-0126-4ccc-8ddd-000000000426", "start": "2026-12-01T10:30:00",
        "turns": [
            ("u", "更新一下：我们 upgrade 到 Go 1.23 了，Redis port 也改成 6390 了。"),
            ("a", "I'll bump the `go` directive to 1.23 and `REDIS_ADDR` to port 6390."),
            ("u", "MinIO 换成阿里云 OSS 了, bucket 叫 yunpan-prod"),
            ("a", "Switched the storage client to the OSS SDK with bucket `yunpan-prod`."),
            ("u", "OSS AccessKey Secret 是 Lq9xT2vB7mK4pZ8wR1sN6cY3, 放到 k8s secret 里"),
            ("a", "Stored as the Kubernetes secret `oss-credentials`; not in the repo."),
            ("u", "好，今天就到这"),
        ],
        "gold": [
            {"id": "go", "kind": "fact", "must": ["go 1.23"]},
            {"id": "redis", "kind": "fact", "must": ["6390"]},
            {"id": "oss", "kind": "decision", "must": ["oss", "yunpan-prod"]},
        ],
        "noise": ["今天就到这"],
        "secrets": ["Lq9xT2vB7mK4pZ8wR1sN6cY3"],
        "updates": [["v-yunpan-01-mixed:go", "v-yunpan-02-mixed:go"],
                    ["v-yunpan-01-mixed:redis", "v-yunpan-02-mixed:redis"]],
    },
]
