"""Voices set H (see build_voices.py): long noisy sessions — an assistant that narrates every step, a
user who pastes code and logs into the prompt, decisions taken by agreeing with the assistant
("sounds good", "the second one"), reversals, near-but-distinct pairs. Labels written with the
conversations, before any run."""

RSPEC = ("Randomized with seed 41822\n..............F.....\n\nFailures:\n\n  1) Invoice#total rounds per line\n"
         "     Failure/Error: expect(invoice.total).to eq(BigDecimal('30.03'))\n       expected: 0.3003e2\n            got: 0.3004e2\n\n"
         "Finished in 0.84 seconds (files took 1.9 seconds to load)\n20 examples, 1 failure\n")
K6 = ("     scenarios: (100.00%) 1 scenario, 200 max VUs, 2m30s max duration\n     http_req_duration..............: avg=412ms min=38ms med=301ms max=4.1s p(90)=890ms p(95)=1.4s\n"
      "     http_req_failed................: 3.12%  ✓ 1871      ✗ 58102\n")
PGSTAT = ("  calls |  mean_ms | query\n--------+----------+------------------------------------------------\n  91022 |   184.20 | SELECT * FROM bookings WHERE venue_id = $1 AND starts_at > $2\n"
          "   4410 |    12.90 | UPDATE venues SET ...\n")
GIT_LOG = "a1b2c3d fix typo\n9f8e7d6 wip\n5a4b3c2 more wip\n1d2e3f4 merge main\n"
LIGHTHOUSE = "Performance: 41\nAccessibility: 88\nBest Practices: 92\nSEO: 100\nLargest Contentful Paint: 6.2 s\nTotal Blocking Time: 1,240 ms\n"

VOICES_H = [
    {
        "name": "v-ledgerly-01-invoices", "order": 367, "project": "ledgerly", "cwd": "/home/marta/src/ledgerly",
        "session": "d1e2f3a4-0067-4ccc-8ddd-000000000367", "start": "2026-11-03T09:00:00",
        "turns": [
            ("u", "ledgerly is a rails 7.2 invoicing app, ruby 3.3. rspec is failing on invoice totals, off by a cent"),
            ("a", "I'll start by running the spec suite to see the failure.", {"tools": [("Bash", {"command": "bundle exec rspec"}, RSPEC)]}),
            ("a", "Now I'll look at how the total is computed.", {"tools": [("Grep", {"pattern": "def total", "path": "app/models"}, "app/models/invoice.rb:14:  def total = lines.sum(&:amount).round(2)\n")]}),
            ("a", "Next I'll check the line amounts.", {"tools": [("Read", {"file_path": "/home/marta/src/ledgerly/app/models/invoice_line.rb"}, "   9\t  def amount = quantity * unit_price * (1 + tax_rate)\n")]}),
            ("a", "The total is a cent off because each line's amount keeps all its decimals and only the sum is rounded, while the invoice prints every line rounded to cents; three lines of 10.0098 add up to 30.0294 → 30.03 printed as 10.01 × 3 = 30.03 but sometimes 30.04. I now round each line to cents with banker's rounding in `InvoiceLine#amount` and sum the rounded lines, which is also what the tax office expects. The spec passes."),
            ("u", "yes round per line, thats the legal rule here in spain too. always round per line, never only the total"),
            ("a", "Got it, I'll note that in the model's comment."),
            ("u", "and we use BigDecimal for all money, never Float"),
            ("a", "Yes, every money column is decimal(12,2) and every calculation is BigDecimal."),
            ("u", "perfect"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["rails 7.2", "ruby 3.3"]},
            {"id": "cent", "kind": "bugfix", "must": ["cent off", "round each line"]},
            {"id": "rule", "kind": "preference", "must": ["round per line", "never only the total"]},
            {"id": "bigdecimal", "kind": "preference", "must": ["bigdecimal", "never float"]},
        ],
        "noise": ["I'll start by running the spec suite", "Now I'll look at how the total is computed", "Next I'll check the line amounts",
                  "Randomized with seed", "perfect"],
        "secrets": [],
    },
    {
        "name": "v-ledgerly-02-pdf", "order": 368, "project": "ledgerly", "cwd": "/home/marta/src/ledgerly",
        "session": "d1e2f3a4-0068-4ccc-8ddd-000000000368", "start": "2026-11-07T11:00:00",
        "turns": [
            ("u", "we need pdf invoices. i was thinking prawn?"),
            ("a", "Prawn gives full control but you lay out everything in Ruby; Grover renders an HTML/ERB template with headless Chrome, so the invoice looks like the web page and designers can edit it. Grover needs Chrome on the server."),
            ("u", "hmm i like the html template idea"),
            ("a", "Then Grover with an ERB template in `app/views/invoices/pdf.html.erb`. Shall I go ahead?"),
            ("u", "sounds good, go"),
            ("a", "I'll add Grover and a `PdfRenderer` service.", {"tools": [("Bash", {"command": "bundle add grover"}, "Fetching grover 1.1.9\nInstalling grover 1.1.9\n")]}),
            ("a", "Added Grover and the template; `Invoice#to_pdf` returns the PDF bytes."),
            ("u", "wait, chrome on the server is a pain on our tiny vps. lets do prawn after all, i'll live with the ruby layout"),
            ("a", "OK — I'll remove Grover and build the invoice with Prawn and prawn-table instead."),
            ("u", "yes prawn. sorry for the back and forth"),
            ("a", "No problem."),
        ],
        "gold": [
            {"id": "grover", "kind": "decision", "must": ["grover"]},
            {"id": "prawn", "kind": "decision", "must": ["prawn"]},
        ],
        "updates": [["v-ledgerly-02-pdf:grover", "v-ledgerly-02-pdf:prawn"]],
        "noise": ["sorry for the back and forth", "No problem", "Installing grover"],
        "secrets": [],
    },
    {
        "name": "v-venuely-01-load", "order": 369, "project": "venuely", "cwd": "/home/theo/venuely",
        "session": "d1e2f3a4-0069-4ccc-8ddd-000000000369", "start": "2026-11-04T14:00:00",
        "turns": [
            ("u", "venuely (booking for event venues) falls over under load. here's the k6 run from last night:\n```\nhttp_req_duration p(95)=1.4s\nhttp_req_failed 3.12%\n```\nwe need p95 under 500ms for the launch"),
            ("a", "Let me rerun the load test and look at the slow queries.", {"tools": [("Bash", {"command": "k6 run load/booking.js"}, K6),
                                                                                      ("Bash", {"command": "psql -c 'select calls, mean_ms, query from pg_stat_statements order by total_time desc limit 2'"}, PGSTAT)]}),
            ("a", "The slow path is `SELECT * FROM bookings WHERE venue_id = $1 AND starts_at > $2`: 91k calls at 184 ms each, because there is no index on (venue_id, starts_at) and Postgres scans the whole table. I added that composite index concurrently; the same k6 run now gives p95 = 310 ms and 0.02% failures."),
            ("u", "wow ok. launch target stays p95 < 500ms at 200 VUs, thats our bar"),
            ("a", "I'll add the k6 run to CI with that threshold."),
            ("u", "the api is node 22 with hono btw, db is postgres 16 on neon. prod neon branch is main, the preview deploys get their own neon branch each"),
            ("a", "Noted: Hono on Node 22; Neon's `main` branch is production and every preview deploy gets its own branch."),
            ("u", "prod pooler host is ep-proud-moon-a1b2.eu-central-1.aws.neon.tech and previews use ep-cool-leaf-c3d4.eu-central-1.aws.neon.tech"),
            ("a", "Got both."),
        ],
        "gold": [
            {"id": "index", "kind": "bugfix", "must": ["venue_id, starts_at", "index"]},
            {"id": "target", "kind": "preference", "must": ["p95 < 500ms", "200 vus"]},
            {"id": "stack", "kind": "fact", "must": ["node 22", "hono"]},
            {"id": "neon", "kind": "fact", "must": ["neon", "preview"]},
            {"id": "prodhost", "kind": "fact", "must": ["ep-proud-moon-a1b2"]},
            {"id": "prevhost", "kind": "fact", "must": ["ep-cool-leaf-c3d4"]},
        ],
        "distinct": [["v-venuely-01-load:prodhost", "v-venuely-01-load:prevhost"]],
        "noise": ["Let me rerun the load test", "Got both", "max VUs", "wow ok"],
        "secrets": [],
    },
    {
        "name": "v-venuely-02-cache", "order": 370, "project": "venuely", "cwd": "/home/theo/venuely",
        "session": "d1e2f3a4-0070-4ccc-8ddd-000000000370", "start": "2026-11-10T15:00:00",
        "turns": [
            ("a", "Before we add caching: do you want it per instance (an in-process LRU), or shared (Upstash Redis)?"),
            ("u", "which one would you pick"),
            ("a", "Shared: you run several instances on Fly, and a per-instance cache would show different availability to different users for up to the TTL."),
            ("u", "ok the second one then, upstash"),
            ("a", "Upstash Redis it is, with a 30-second TTL on venue availability and invalidation on every booking write."),
            ("u", "👍 and never cache anything with a user's personal data in it"),
            ("a", "Understood — only venue-level data goes in the cache."),
            ("u", "the upstash token is AXk8ZmQ2LTk4YjEtNDc3NS1hZmRl, put it in fly secrets"),
            ("a", "Set it with `fly secrets set UPSTASH_REDIS_REST_TOKEN=…`; it's not in the repo."),
        ],
        "gold": [
            {"id": "upstash", "kind": "decision", "must": ["upstash"]},
            {"id": "pii", "kind": "preference", "must": ["never cache", "personal data"]},
        ],
        "noise": ["which one would you pick"],
        "secrets": ["AXk8ZmQ2LTk4YjEtNDc3NS1hZmRl"],
    },
    {
        "name": "v-gitflow-01-conventions", "order": 371, "project": "paperplane", "cwd": "/home/sofia/paperplane",
        "session": "d1e2f3a4-0071-4ccc-8ddd-000000000371", "start": "2026-11-05T10:00:00",
        "turns": [
            ("u", "ugh look at this history", ),
            ("a", "", {"tools": [("Bash", {"command": "git log --oneline -4"}, GIT_LOG)]}),
            ("a", "Four commits: 'fix typo', 'wip', 'more wip', 'merge main'. What would you like the history to look like?"),
            ("u", "conventional commits from now on. feat:, fix:, chore: etc. and squash merge only on github, no merge commits in main"),
            ("a", "I'll add commitlint with the conventional config as a commit-msg hook and set the repo to squash merging only."),
            ("u", "branch names like feat/short-desc or fix/short-desc"),
            ("a", "OK, and a check in CI for the branch name."),
            ("u", "also PRs need one approval, and the CI must be green. no direct pushes to main for anyone, me included"),
            ("a", "I'll set the branch protection: one approval, required checks, no bypass for admins."),
            ("u", "paperplane is a vite + react 18 app btw, typescript strict mode on, keep it that way"),
            ("a", "Noted: TypeScript strict stays on."),
        ],
        "gold": [
            {"id": "cc", "kind": "preference", "must": ["conventional commits"]},
            {"id": "squash", "kind": "preference", "must": ["squash merge", "no merge commits"]},
            {"id": "branch", "kind": "preference", "must": ["feat/short-desc"]},
            {"id": "review", "kind": "preference", "must": ["one approval", "no direct pushes"]},
            {"id": "strict", "kind": "preference", "must": ["strict mode", "react 18"]},
        ],
        "noise": ["ugh look at this history", "more wip", "merge main"],
        "secrets": [],
    },
    {
        "name": "v-gitflow-02-perf", "order": 372, "project": "paperplane", "cwd": "/home/sofia/paperplane",
        "session": "d1e2f3a4-0072-4ccc-8ddd-000000000372", "start": "2026-11-12T13:00:00",
        "turns": [
            ("u", "lighthouse says 41 performance on mobile, marketing is unhappy"),
            ("a", "", {"tools": [("Bash", {"command": "npx lighthouse https://paperplane.app --preset=perf --form-factor=mobile --quiet"}, LIGHTHOUSE),
                                 ("Bash", {"command": "npx vite-bundle-visualizer --json | head -3"}, "{\"moment\": \"312 kB\", \"lodash\": \"71 kB\", \"app\": \"144 kB\"}\n")]}),
            ("a", "The LCP of 6.2 s is mostly JavaScript: the main bundle includes all of moment.js with its locales (312 kB) and full lodash, and the hero image is a 2.4 MB PNG. I replaced moment with date-fns, imported lodash functions one by one, lazy-loaded the editor route and served the hero as a 180 kB AVIF; Lighthouse mobile is 89 now."),
            ("u", "amazing. rule: no moment.js, ever. date-fns only"),
            ("a", "I'll add an eslint `no-restricted-imports` rule for moment."),
            ("u", "and images in avif with webp fallback"),
            ("a", "OK, via `<picture>` with AVIF then WebP."),
        ],
        "gold": [
            {"id": "lcp", "kind": "bugfix", "must": ["moment", "date-fns", "avif"]},
            {"id": "moment", "kind": "preference", "must": ["no moment.js", "date-fns"]},
            {"id": "avif", "kind": "preference", "must": ["avif", "webp"]},
        ],
        "noise": ["marketing is unhappy", "Total Blocking Time"],
        "secrets": [],
    },
    {
        "name": "v-spanglish-01-bot", "order": 373, "project": "citabot", "cwd": "/home/diego/citabot",
        "session": "d1e2f3a4-0073-4ccc-8ddd-000000000373", "start": "2026-11-06T18:00:00",
        "turns": [
            ("u", "oye, citabot es un whatsapp bot para agendar citas en barberías. it's python 3.11 with the whatsapp cloud api and fastapi for the webhook"),
            ("a", "Nice. Where are the appointments stored?"),
            ("u", "en google calendar, one calendar por barbero. we don't have our own db for citas, the calendar is the source of truth"),
            ("a", "Understood: Google Calendar per barber is the source of truth; no appointments table."),
            ("u", "the bot talks only in spanish, informal, tuteando, never usted"),
            ("a", "OK, informal Spanish (tú) in every message."),
            ("u", "el verify token del webhook es barber-verify-8812 y el access token de meta es EAAGm0PX4ZCpsBAKZAx9Qw, no los pongas en el código porfa"),
            ("a", "Both go in the environment (`WA_VERIFY_TOKEN`, `WA_ACCESS_TOKEN`), not the code."),
            ("u", "slots son de 30 minutos, the barbers asked for that"),
            ("a", "OK, 30-minute slots."),
            ("u", "chido, gracias"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["python 3.11", "whatsapp cloud api"]},
            {"id": "calendar", "kind": "decision", "must": ["google calendar", "source of truth"]},
            {"id": "tu", "kind": "preference", "must": ["never usted"]},
            {"id": "slots", "kind": "fact", "must": ["30 minutos"]},
        ],
        "noise": ["chido, gracias", "oye"],
        "secrets": ["EAAGm0PX4ZCpsBAKZAx9Qw"],
    },
    {
        "name": "v-spanglish-02-reminders", "order": 374, "project": "citabot", "cwd": "/home/diego/citabot",
        "session": "d1e2f3a4-0074-4ccc-8ddd-000000000374", "start": "2026-11-12T19:00:00",
        "turns": [
            ("u", "los recordatorios: send one 24h before and one 2h before the cita"),
            ("a", "I'll schedule both from the calendar's events with APScheduler. Should a client be able to cancel by replying?"),
            ("u", "sí, replying CANCELAR cancels it and frees the slot"),
            ("a", "OK: a reply of CANCELAR deletes the event and confirms."),
            ("u", "ah and we changed slots to 45 minutos, 30 was too tight for beard trims"),
            ("a", "Updated the slot length to 45 minutes."),
            ("u", "we're moving the bot from python 3.11 to 3.12 too"),
            ("a", "I'll update the Dockerfile and the CI image to Python 3.12."),
        ],
        "gold": [
            {"id": "remind", "kind": "preference", "must": ["24h before", "2h before"]},
            {"id": "cancel", "kind": "decision", "must": ["cancelar"]},
            {"id": "slots", "kind": "fact", "must": ["45 minutos"]},
            {"id": "python", "kind": "fact", "must": ["3.12"]},
        ],
        "updates": [["v-spanglish-01-bot:slots", "v-spanglish-02-reminders:slots"], ["v-spanglish-01-bot:stack", "v-spanglish-02-reminders:python"]],
        "noise": ["too tight for beard trims"],
        "secrets": [],
    },
]
