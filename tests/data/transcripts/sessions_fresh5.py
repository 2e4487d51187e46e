"""Fifth fresh set ("fresh5"): six conversations written after commit e7c80be (the rules tuned on
fresh4's misses), labelled here before the rules were run on them, never edited afterwards.

Same labelling as sessions.py. Three projects (a Flask payments API, an iOS app, a data-sync CLI),
one-off task requests and status numbers that are not durable, updates across sessions, secrets.
"""

PYTEST = "........................................................ [100%]\n56 passed, 2 skipped in 12.40s\n"
XCODE = "** BUILD SUCCEEDED ** [41.233 sec]\n"
SYNC_LOG = "2026-12-01T02:00:04Z INFO synced 18234 rows from crm.accounts in 41s\n2026-12-01T02:00:05Z WARN 3 rows skipped (bad email)\n"

FRESH5 = [
    {
        "name": "payapi-01-setup", "order": 39, "project": "payapi", "cwd": "/home/tomas/work/payapi", "v2": True,
        "session": "b2c3d4e5-0001-4ccc-9ddd-000000000039", "start": "2026-12-01T08:05:00", "split": "fresh5",
        "turns": [
            ("u", "morning! flask app, python 3.11. can you add a /health endpoint that returns the git sha"),
            ("a", "", {"tools": [("Bash", {"command": "pytest -q"}, PYTEST)]}),
            ("a", "Added `/health` returning `{\"status\": \"ok\", \"sha\": ...}`; 56 passed."),
            ("u", "cool. all money amounts in the API are strings with two decimals like \"12.50\", never JSON numbers"),
            ("a", "Understood."),
            ("u", "the payment provider is Adyen, test merchant account is PayApiTestECOM"),
            ("a", "Noted."),
            ("u", "adyen api key for test: AQEyhmfxK4zJbxZDw0m/n3Q5qf3VaY9UCJ1+XWZe9W27jmlZipy3Ew, keep it out of git"),
            ("a", "It stays in `.env` (git-ignored) as `ADYEN_API_KEY`."),
            ("u", "webhooks from adyen hit /webhooks/adyen and must be HMAC-verified before anything else happens"),
            ("a", "Added HMAC verification as the first step of the webhook view."),
            ("u", "tests took 12s, that's fine for now"),
        ],
        "gold": [
            {"id": "python", "kind": "fact", "must": ["python", "3.11"]},
            {"id": "money", "kind": "preference", "must": ["strings", "two decimals"]},
            {"id": "adyen", "kind": "fact", "must": ["adyen", "payapitestecom"]},
            {"id": "hmac", "kind": "preference", "must": ["/webhooks/adyen", "hmac"]},
        ],
        "noise": ["/health endpoint", "56 passed", "tests took 12s", "Understood"],
        "secrets": ["AQEyhmfxK4zJbxZDw0m/n3Q5qf3VaY9UCJ1+XWZe9W27jmlZipy3Ew"],
    },
    {
        "name": "payapi-02-idempotency", "order": 40, "project": "payapi", "cwd": "/home/tomas/work/payapi",
        "session": "b2c3d4e5-0002-4ccc-9ddd-000000000040", "start": "2026-12-03T13:40:00", "split": "fresh5",
        "turns": [
            ("u", "customers get charged twice when they double-click pay"),
            ("a", "", {"tools": [("Grep", {"pattern": "def create_payment", "path": "payapi"}, "payapi/payments.py:31:def create_payment(req):\n")]}),
            ("a", "The cause is that `create_payment` has no idempotency: two requests create two Adyen payments. I made the client send an `Idempotency-Key` header and the server store the key with the payment result for 24 hours, returning the stored result on a repeat."),
            ("u", "ok tested it, only one charge now 👍"),
            ("u", "we moved to python 3.12 last week, update the Dockerfile base image"),
            ("a", "Changed the base image to `python:3.12-slim`."),
            ("u", "idempotency keys live in redis db 2, not the default db"),
            ("a", "Configured `IDEMPOTENCY_REDIS_URL` to use db 2."),
        ],
        "gold": [
            {"id": "double", "kind": "bugfix", "must": ["idempotency", "twice"]},
            {"id": "python", "kind": "fact", "must": ["python", "3.12"]},
            {"id": "redis", "kind": "fact", "must": ["redis", "db 2"]},
        ],
        "updates": [["payapi-01-setup:python", "payapi-02-idempotency:python"]],
        "noise": ["update the Dockerfile", "👍"],
        "secrets": [],
    },
    {
        "name": "tidy-01-ios", "order": 41, "project": "tidy-ios", "cwd": "/Users/ren/dev/tidy-ios", "branch": "develop",
        "session": "b2c3d4e5-0003-4ccc-9ddd-000000000041", "start": "2026-12-02T10:00:00", "split": "fresh5",
        "turns": [
            ("u", "SwiftUI app, min iOS 16. we don't use storyboards at all"),
            ("a", "", {"tools": [("Bash", {"command": "xcodebuild -scheme Tidy build"}, XCODE)]}),
            ("a", "The project builds; 41 s for a clean build."),
            ("u", "state management is TCA (the composable architecture), version 1.9"),
            ("a", "I'll follow the reducer structure in `Features/`."),
            ("u", "Should new screens get their own feature module or live in the main target?"),
            ("a", "Their own module: it keeps previews fast and the main target small. The main target only wires features together."),
            ("u", "yeah own module"),
            ("a", "Created `Features/Settings` as its own module."),
            ("u", "thx! gotta run"),
        ],
        "gold": [
            {"id": "ios", "kind": "fact", "must": ["ios 16"]},
            {"id": "storyboards", "kind": "preference", "must": ["storyboards"]},
            {"id": "tca", "kind": "fact", "must": ["tca", "1.9"]},
            {"id": "module", "kind": "decision", "must": ["module", "screens"]},
        ],
        "noise": ["gotta run", "41 s for a clean build", "BUILD SUCCEEDED"],
        "secrets": [],
    },
    {
        "name": "tidy-02-release", "order": 42, "project": "tidy-ios", "cwd": "/Users/ren/dev/tidy-ios", "v2": True,
        "session": "b2c3d4e5-0004-4ccc-9ddd-000000000042", "start": "2026-12-04T17:20:00", "split": "fresh5",
        "turns": [
            ("u", "the app crashes on launch on iOS 16.4 devices only, EXC_BAD_ACCESS in ImageCache.init"),
            ("a", "", {"tools": [("Read", {"file_path": "/Users/ren/dev/tidy-ios/Sources/ImageCache.swift"}, "  12\t    let cache = NSCache<NSString, UIImage>()\n  13\t    init() { cache.totalCostLimit = Int(ProcessInfo.processInfo.physicalMemory / 8) }\n")]}),
            ("a", "The root cause: `Int(physicalMemory / 8)` is computed before `cache` is fully set up on 16.4 because of a static initialisation order bug in our `ImageCache.shared`. The fix is to make `shared` lazy and set `totalCostLimit` after init."),
            ("u", "confirmed, no crash on the 16.4 simulator anymore"),
            ("u", "releases go through fastlane: `bundle exec fastlane beta` for testflight"),
            ("a", "Got it."),
            ("u", "we bumped min iOS to 17 for the new observation APIs"),
            ("a", "Updated the deployment target to 17.0."),
        ],
        "gold": [
            {"id": "crash", "kind": "bugfix", "must": ["imagecache", "lazy"]},
            {"id": "fastlane", "kind": "fact", "must": ["fastlane beta"]},
            {"id": "ios", "kind": "fact", "must": ["ios", "17"]},
        ],
        "updates": [["tidy-01-ios:ios", "tidy-02-release:ios"]],
        "noise": ["Got it", "Updated the deployment target"],
        "secrets": [],
    },
    {
        "name": "syncer-01-cli", "order": 43, "project": "syncer", "cwd": "/opt/code/syncer",
        "session": "b2c3d4e5-0005-4ccc-9ddd-000000000043", "start": "2026-12-01T09:30:00", "split": "fresh5",
        "turns": [
            ("u", "syncer copies accounts from the CRM into our warehouse. source is the crm.accounts table, target is analytics.raw_accounts"),
            ("a", "", {"tools": [("Bash", {"command": "tail -n 2 /var/log/syncer.log"}, SYNC_LOG)]}),
            ("a", "Last night's run synced 18,234 rows in 41 s and skipped 3 rows with bad emails."),
            ("u", "it runs from a systemd timer at 02:00 every day"),
            ("a", "OK."),
            ("u", "CRM creds: user svc_sync / pass Qw!7rT-lmn-2049, read only"),
            ("a", "I won't store the password; use the `CRM_PASSWORD` environment variable on the host."),
            ("u", "config is TOML at /etc/syncer/config.toml, no env var overrides except secrets"),
            ("a", "Understood."),
            ("u", "can you make the skipped rows go to a dead-letter file?"),
            ("a", "Done: skipped rows now go to `/var/lib/syncer/dead-letter.jsonl`."),
        ],
        "gold": [
            {"id": "tables", "kind": "fact", "must": ["crm.accounts", "analytics.raw_accounts"]},
            {"id": "timer", "kind": "fact", "must": ["systemd", "02:00"]},
            {"id": "config", "kind": "fact", "must": ["/etc/syncer/config.toml"]},
        ],
        "noise": ["18,234 rows", "dead-letter file", "Understood"],
        "secrets": ["Qw!7rT-lmn-2049"],
    },
    {
        "name": "syncer-02-schedule", "order": 44, "project": "syncer", "cwd": "/opt/code/syncer", "v2": True,
        "session": "b2c3d4e5-0006-4ccc-9ddd-000000000044", "start": "2026-12-05T11:00:00", "split": "fresh5",
        "summary": "Syncer schedule and retries",
        "turns": [
            ("u", "the nightly sync now runs at 01:15 instead of 02:00, the CRM has maintenance at 2"),
            ("a", "Updated the timer's `OnCalendar` to `*-*-* 01:15:00`."),
            ("u", "on failure retry 3 times with 10 minute gaps, then page whoever is on call"),
            ("a", "Added `Restart=on-failure` with `RestartSec=10min` and `StartLimitBurst=3`, and an `OnFailure=` unit that pages."),
            ("u", "lgtm"),
            ("u", "what's the warehouse host again?"),
            ("a", "It's `wh-prod-1.data.internal`, port 5439."),
            ("u", "yes that one"),
        ],
        "gold": [
            {"id": "timer", "kind": "fact", "must": ["01:15"]},
            {"id": "retry", "kind": "preference", "must": ["retry", "3"]},
            {"id": "host", "kind": "fact", "must": ["wh-prod-1.data.internal"]},
        ],
        "updates": [["syncer-01-cli:timer", "syncer-02-schedule:timer"]],
        "noise": ["lgtm", "what's the warehouse host"],
        "secrets": [],
    },
]
