"""Voices set J (see build_voices.py): updates across sessions, written by capture helper H8 on
2026-12-02 — a terse British Laravel developer, a Polish greenhouse-sensor developer, a chatty
American Expo developer; each second session changes values the first one stated (a deploy tool
left, a version bumped, a retention, a host, a minimum OS, a library ditched). All six files fall in
vtune by name hash. Labels written with the conversations, before any run."""

ARTISAN = "\n   PASS  Tests\\Feature\\QuoteTest\n  ✓ it prices a 20ft container\n\n  Tests:    142 passed (388 assertions)\n  Duration: 6.21s\n"
PHPV = "PHP 8.4.1 (cli) (built: Nov 21 2026 10:11:02) (NTS)\nCopyright (c) The PHP Group\nZend Engine v4.4.1\n"
GOTEST = "ok  \tkelpie/ingest\t0.412s\nok  \tkelpie/store\t1.027s\n?   \tkelpie/cmd/kelpie\t[no test files]\n"
PSQL = ("ERROR:  duplicate key value violates unique constraint \"readings_sensor_ts_key\"\n"
        "DETAIL:  Key (sensor_id, ts)=(gh2-t14, 2026-11-20 04:10:00+00) already exists.\n")
EXPO = "Starting Metro Bundler\n› Metro waiting on exp://192.168.1.20:8081\n› Using Expo Go\nAndroid Bundled 2114ms node_modules/expo-router/entry.js (1187 modules)\n"

VOICES_J = [
    {
        "name": "v-quaystack-01-base", "order": 383, "project": "quaystack", "cwd": "/home/tom/quaystack",
        "session": "d1e2f3a4-0083-4ccc-8ddd-000000000383", "start": "2026-11-16T08:40:00",
        "turns": [
            ("u", "morning. quaystack is our freight quote tool, laravel 11 on php 8.3, mysql 8. queue is redis via horizon."),
            ("a", "", {"tools": [("Bash", {"command": "php artisan test"}, ARTISAN)]}),
            ("a", "All 142 tests pass."),
            ("u", "we deploy with envoyer to a single forge box, quay-prod-1.quaystack.io"),
            ("a", "Noted."),
            ("u", "quotes expire after 14 days. customers complain but that's the policy"),
            ("a", "OK, a 14-day expiry on quotes.", {"thinking": "The user states a business rule: quote expiry 14 days. Nothing to change in code yet."}),
            ("u", "mailgun api key is key-9f8e7d6c5b4a39281706f5e4d3c2b1a0, keep it out of git"),
            ("a", "It lives in `.env` only, which is git-ignored."),
            ("u", "cheers"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["laravel 11", "php 8.3"]},
            {"id": "queue", "kind": "fact", "must": ["redis", "horizon"]},
            {"id": "deploy", "kind": "fact", "must": ["envoyer", "quay-prod-1.quaystack.io"]},
            {"id": "expiry", "kind": "fact", "must": ["quotes expire after 14 days"]},
        ],
        "noise": ["customers complain", "cheers", "142 passed"],
        "secrets": ["key-9f8e7d6c5b4a39281706f5e4d3c2b1a0"],
    },
    {
        "name": "v-quaystack-02-changes", "order": 384, "project": "quaystack", "cwd": "/home/tom/quaystack",
        "session": "d1e2f3a4-0084-4ccc-8ddd-000000000384", "start": "2026-11-23T09:05:00",
        "turns": [
            ("u", "right, a few changes since last time. we moved off envoyer, deploys now go through github actions to the same forge box"),
            ("a", "I'll add a workflow that SSHes to Forge and runs the deploy script on a push to main."),
            ("u", "also bumped php to 8.4 last night, all green"),
            ("a", "", {"tools": [("Bash", {"command": "ssh forge@quay-prod-1.quaystack.io php -v"}, PHPV)]}),
            ("a", "Confirmed, PHP 8.4.1 on the box."),
            ("u", "and quote expiry is 30 days now, sales won that argument"),
            ("a", "Changed `QUOTE_TTL_DAYS` to 30."),
            ("u", "ta"),
        ],
        "gold": [
            {"id": "deploy", "kind": "decision", "must": ["github actions"]},
            {"id": "stack", "kind": "fact", "must": ["php", "8.4"]},
            {"id": "expiry", "kind": "fact", "must": ["expiry", "30 days"]},
        ],
        "noise": ["sales won that argument", "all green", "Zend Engine"],
        "secrets": [],
        "updates": [["v-quaystack-01-base:deploy", "v-quaystack-02-changes:deploy"],
                    ["v-quaystack-01-base:stack", "v-quaystack-02-changes:stack"],
                    ["v-quaystack-01-base:expiry", "v-quaystack-02-changes:expiry"]],
    },
    {
        "name": "v-kelpie-01-start", "order": 385, "project": "kelpie", "cwd": "/home/marta/kelpie",
        "session": "d1e2f3a4-0085-4ccc-8ddd-000000000385", "start": "2026-11-17T07:30:00",
        "turns": [
            ("u", "Hello. Kelpie is small Go service which collects sensor readings from our greenhouses over MQTT. Go 1.22, broker is mosquitto on broker.kelpie.lan port 1883."),
            ("a", "Which storage for the readings, InfluxDB or TimescaleDB?"),
            ("u", "TimescaleDB, we already know Postgres well."),
            ("a", "OK, TimescaleDB with a hypertable for the readings."),
            ("u", "Each sensor sends a reading every 10 seconds. We keep raw data 90 days, after that only hourly averages."),
            ("a", "", {"tools": [("Bash", {"command": "go test ./..."}, GOTEST)]}),
            ("a", "Tests pass; the retention policy and the hourly continuous aggregate are in the migration."),
            ("u", "Thank you, good job."),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["go 1.22"]},
            {"id": "broker", "kind": "fact", "must": ["broker.kelpie.lan", "1883"]},
            {"id": "tsdb", "kind": "decision", "must": ["timescaledb"]},
            {"id": "interval", "kind": "fact", "must": ["every 10 seconds"]},
            {"id": "retention", "kind": "fact", "must": ["raw data 90 days"]},
        ],
        "noise": ["Thank you, good job", "no test files"],
        "secrets": [],
    },
    {
        "name": "v-kelpie-02-later", "order": 386, "project": "kelpie", "cwd": "/home/marta/kelpie",
        "session": "d1e2f3a4-0086-4ccc-8ddd-000000000386", "start": "2026-11-24T07:45:00",
        "turns": [
            ("u", "Hi again. The broker moved, it is now on mqtt.kelpie.lan, same port."),
            ("a", "Updated `KELPIE_BROKER` to `mqtt.kelpie.lan:1883`."),
            ("u", "And raw data we keep now 180 days, the agronomists want the full season."),
            ("a", "Changed the retention policy to 180 days."),
            ("u", "Sometimes readings arrive twice after a reconnect and the insert fails."),
            ("a", "", {"tools": [("Bash", {"command": "journalctl -u kelpie --since today | grep ERROR | tail -2"}, PSQL)]}),
            ("a", "After a reconnect the client resubscribes with QoS 1 and the broker redelivers the unacknowledged messages, so the same reading comes in twice. I added a unique index on (sensor_id, ts) and changed the insert to `ON CONFLICT DO NOTHING`, so a redelivered reading is dropped instead of failing."),
            ("u", "Works, thanks."),
        ],
        "gold": [
            {"id": "broker", "kind": "fact", "must": ["mqtt.kelpie.lan"]},
            {"id": "retention", "kind": "fact", "must": ["raw data", "180 days"]},
            {"id": "dup", "kind": "bugfix", "must": ["unique index", "on conflict do nothing"]},
        ],
        "noise": ["Works, thanks", "duplicate key value"],
        "secrets": [],
        "updates": [["v-kelpie-01-start:broker", "v-kelpie-02-later:broker"],
                    ["v-kelpie-01-start:retention", "v-kelpie-02-later:retention"]],
    },
    {
        "name": "v-saltmarsh-01-start", "order": 387, "project": "saltmarsh", "cwd": "/Users/jess/code/saltmarsh",
        "session": "d1e2f3a4-0087-4ccc-8ddd-000000000387", "start": "2026-11-18T16:00:00",
        "turns": [
            ("u", "hey! saltmarsh is a tide-tables app, expo sdk 51 with expo router. we're targeting ios 16+ and android 10+"),
            ("a", "", {"tools": [("Bash", {"command": "npx expo start --android"}, EXPO)]}),
            ("a", "Got it, the app bundles. Where do the tide predictions come from?"),
            ("u", "NOAA CO-OPS api for the US stations, we cache predictions for 7 days in sqlite on the device"),
            ("a", "OK: CO-OPS predictions, cached 7 days in expo-sqlite."),
            ("u", "state management: zustand, not redux. keep it light"),
            ("a", "Zustand it is."),
            ("u", "ok thats it for today, ttyl"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["expo sdk 51"]},
            {"id": "targets", "kind": "fact", "must": ["ios 16"]},
            {"id": "source", "kind": "fact", "must": ["noaa co-ops"]},
            {"id": "cache", "kind": "fact", "must": ["7 days", "sqlite"]},
            {"id": "state", "kind": "preference", "must": ["zustand", "not redux"]},
        ],
        "noise": ["ttyl", "Metro waiting"],
        "secrets": [],
    },
    {
        "name": "v-saltmarsh-02-later", "order": 388, "project": "saltmarsh", "cwd": "/Users/jess/code/saltmarsh",
        "session": "d1e2f3a4-0088-4ccc-8ddd-000000000388", "start": "2026-11-26T15:20:00",
        "turns": [
            ("u", "so apple forced our hand, we're bumping the minimum to ios 17 since expo sdk 52 needs it"),
            ("a", "Bumped `ios.deploymentTarget` to 17.0 and upgraded the project to SDK 52."),
            ("u", "also we ditched zustand for jotai, the atoms fit our screens better"),
            ("a", "Migrated the stores to Jotai atoms."),
            ("u", "the prediction cache is 14 days now btw, people on boats are offline for ages"),
            ("a", "Changed the cache window to 14 days."),
            ("u", "awesome thx!!"),
        ],
        "gold": [
            {"id": "targets", "kind": "fact", "must": ["ios 17"]},
            {"id": "stack", "kind": "fact", "must": ["expo sdk 52"]},
            {"id": "state", "kind": "decision", "must": ["jotai"]},
            {"id": "cache", "kind": "fact", "must": ["cache", "14 days"]},
        ],
        "noise": ["awesome thx", "apple forced our hand"],
        "secrets": [],
        "updates": [["v-saltmarsh-01-start:targets", "v-saltmarsh-02-later:targets"],
                    ["v-saltmarsh-01-start:stack", "v-saltmarsh-02-later:stack"],
                    ["v-saltmarsh-01-start:state", "v-saltmarsh-02-later:state"],
                    ["v-saltmarsh-01-start:cache", "v-saltmarsh-02-later:cache"]],
    },
]
