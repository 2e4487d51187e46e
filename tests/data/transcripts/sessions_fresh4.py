"""Fourth fresh set ("fresh4"): eight conversations written after commit 34d6696 (the rules tuned on
the newfresh misses), labelled here before the rules were run on them, never edited afterwards.

Same labelling as sessions.py. Four projects (Django app, Envoy edge, dbt on Snowflake, a Godot
game), updates within and across sessions, three secrets, emoji and lower-case chat.
"""

MAKE_TEST = ("============================= test session starts ==============================\n"
             "plugins: django-4.8.0\ncollected 88 items\n\n......................................\n"
             "============================== 88 passed in 4.12s ==============================\n")
EXPLAIN = ("Seq Scan on recipe  (cost=0.00..48211.30 rows=112 width=244) (actual time=0.041..3981.2 rows=96 loops=1)\n"
           "  Filter: (upper((title)::text) ~~ '%CHICKEN%'::text)\nPlanning Time: 0.12 ms\nExecution Time: 3981.9 ms\n")
ENVOY = ("static_resources:\n  listeners:\n  - name: edge\n    address:\n      socket_address: { address: 0.0.0.0, port_value: 10000 }\n"
         "admin:\n  address:\n    socket_address: { address: 0.0.0.0, port_value: 9901 }\n")
DBT_LS = "stg_orders\nstg_refunds\nstg_customers\n...\nint_order_items\nfct_orders\ndim_customers\n"

FRESH4 = [
    {
        "name": "recipes-01-setup", "order": 31, "project": "recipes", "cwd": "/home/lina/code/recipes", "v2": True,
        "session": "a1b2c3d4-0001-4aaa-8bbb-000000000031", "start": "2026-11-27T09:00:00", "split": "fresh4",
        "turns": [
            ("u", "ok so this is a django 5.0 project, htmx on the frontend. I hate SPAs so keep it server-rendered"),
            ("a", "", {"tools": [("Bash", {"command": "ls recipes/settings"}, "__init__.py\nbase.py\ndev.py\nprod.py\n")]}),
            ("a", "Found `recipes/settings/base.py`, `dev.py` and `prod.py`."),
            ("u", "settings split: base/dev/prod, DJANGO_SETTINGS_MODULE defaults to recipes.settings.dev"),
            ("a", "Got it."),
            ("u", "tests are pytest-django, run them with `make test` not manage.py test"),
            ("a", "", {"tools": [("Bash", {"command": "make test"}, MAKE_TEST)]}),
            ("a", "88 passed."),
            ("u", "the SECRET_KEY in dev.py is django-insecure-9x!q2v@r7#b1 whatever, it's dev only"),
            ("a", "Fine for dev; prod reads it from the environment."),
            ("u", "yep. media uploads go to the bucket recipes-media on DigitalOcean Spaces"),
        ],
        "gold": [
            {"id": "django", "kind": "fact", "must": ["django", "5.0"]},
            {"id": "ssr", "kind": "preference", "must": ["server-rendered"]},
            {"id": "settings", "kind": "fact", "must": ["recipes.settings.dev"]},
            {"id": "tests", "kind": "preference", "must": ["make test"]},
            {"id": "media", "kind": "fact", "must": ["recipes-media"]},
        ],
        "noise": ["88 passed", "Got it", "whatever"],
        "secrets": ["django-insecure-9x!q2v@r7#b1"],
    },
    {
        "name": "recipes-02-search", "order": 32, "project": "recipes", "cwd": "/home/lina/code/recipes",
        "session": "a1b2c3d4-0002-4aaa-8bbb-000000000032", "start": "2026-11-28T14:10:00", "split": "fresh4",
        "turns": [
            ("u", "search is slow again, /search?q=chicken takes 4s"),
            ("a", "", {"tools": [("Bash", {"command": "python manage.py dbshell -c \"EXPLAIN ANALYZE ...\""}, EXPLAIN)]}),
            ("a", "Postgres does a sequential scan on `recipe.title` because the `icontains` lookup can't use the btree index. I added a GIN trigram index (`pg_trgm`) on title and ingredients; the same query now takes 38 ms."),
            ("u", "🔥 nice"),
            ("u", "we're on postgres 16 btw, not 15 like the readme says"),
            ("a", "Updated the README."),
            ("u", "going forward new lookups should use the trigram index instead of icontains where it matters"),
            ("a", "Will keep that in mind."),
        ],
        "gold": [
            {"id": "search", "kind": "bugfix", "must": ["trigram", "slow"]},
            {"id": "pg", "kind": "fact", "must": ["postgres 16"]},
            {"id": "trgm", "kind": "preference", "must": ["trigram", "icontains"]},
        ],
        "noise": ["🔥 nice", "Will keep that in mind", "Updated the README"],
        "secrets": [],
    },
    {
        "name": "edge-01-envoy", "order": 33, "project": "edge-proxy", "cwd": "/srv/edge-proxy",
        "session": "a1b2c3d4-0003-4aaa-8bbb-000000000033", "start": "2026-11-27T16:00:00", "split": "fresh4",
        "summary": "Envoy migration, step 1",
        "turns": [
            ("u", "we're moving the edge from nginx to envoy this quarter. first step: envoy config lives in envoy/envoy.yaml, generated from templates/ by `make render`"),
            ("a", "", {"tools": [("Read", {"file_path": "/srv/edge-proxy/envoy/envoy.yaml"}, ENVOY)]}),
            ("a", "The listener is on 0.0.0.0:10000 and the admin interface on 9901."),
            ("u", "admin must never be exposed publicly, bind it to 127.0.0.1"),
            ("a", "Changed the admin address to 127.0.0.1:9901."),
            ("u", "TLS certs come from vault at pki/issue/edge, rotated every 24h by vault-agent"),
            ("a", "OK"),
            ("u", "cloudflare api token for dns challenges: 7fXk2Qw9-Lm3Np8Rt5Vb1Yz6Hc4Jd0Ge — DON'T put it in the repo"),
            ("a", "It stays out of the repo; reference it as `CF_API_TOKEN` from vault."),
        ],
        "gold": [
            {"id": "envoy", "kind": "decision", "must": ["envoy", "nginx"]},
            {"id": "render", "kind": "fact", "must": ["make render"]},
            {"id": "admin", "kind": "preference", "must": ["admin", "127.0.0.1"]},
            {"id": "vault", "kind": "fact", "must": ["pki/issue/edge"]},
        ],
        "noise": ["0.0.0.0:10000", "OK"],
        "secrets": ["7fXk2Qw9-Lm3Np8Rt5Vb1Yz6Hc4Jd0Ge"],
    },
    {
        "name": "edge-02-cutover", "order": 34, "project": "edge-proxy", "cwd": "/srv/edge-proxy", "v2": True,
        "session": "a1b2c3d4-0004-4aaa-8bbb-000000000034", "start": "2026-12-01T10:30:00", "split": "fresh4",
        "turns": [
            ("u", "envoy admin moved to port 9902, 9901 is taken by the node exporter on these boxes"),
            ("a", "Updated `admin.address.socket_address.port_value` to 9902."),
            ("u", "also retries: max 2 retries on 503 only, never retry POSTs"),
            ("a", "", {"tools": [("Bash", {"command": "envoy --mode validate -c envoy/envoy.yaml"}, "configuration 'envoy/envoy.yaml' OK\n")]}),
            ("u", "the cutover from nginx is scheduled for Tuesday 2026-12-15 at 05:00 UTC"),
            ("a", "Noted the cutover window."),
            ("u", "scratch that, cutover is the 17th, same time"),
            ("a", "Updated the runbook."),
        ],
        "gold": [
            {"id": "adminport", "kind": "fact", "must": ["9902"]},
            {"id": "retries", "kind": "preference", "must": ["retries", "503"]},
            {"id": "cutover", "kind": "fact", "must": ["2026-12-15", "05:00"]},
            {"id": "cutover2", "kind": "fact", "must": ["17th"]},
        ],
        "updates": [["edge-02-cutover:cutover", "edge-02-cutover:cutover2"]],
        "noise": ["configuration 'envoy/envoy.yaml' OK", "Noted the cutover window", "Updated the runbook"],
        "secrets": [],
    },
    {
        "name": "analytics-01-dbt", "order": 35, "project": "analytics", "cwd": "/Users/sam/analytics",
        "session": "a1b2c3d4-0005-4aaa-8bbb-000000000035", "start": "2026-11-26T11:15:00", "split": "fresh4",
        "turns": [
            ("u", "dbt project on snowflake. models: staging → intermediate → marts, never select from raw in marts"),
            ("a", "", {"tools": [("Bash", {"command": "dbt ls --resource-type model"}, DBT_LS)]}),
            ("a", "There are 14 staging models, 6 intermediate and 9 marts."),
            ("u", "warehouse for dev is TRANSFORM_XS, prod uses TRANSFORM_L"),
            ("a", "OK."),
            ("u", "sql style: lowercase keywords, trailing commas, CTEs over subqueries. we lint with sqlfluff"),
            ("a", "", {"tools": [("Bash", {"command": "sqlfluff lint models/"}, "All Finished 📜 🎉!\n")]}),
            ("u", "snowflake password for the dbt user is Tr4nsf0rm!Snow#2026, set it in profiles.yml locally"),
            ("a", "I'd rather use key-pair auth; I set `private_key_path` in `profiles.yml` instead of a password."),
            ("u", "even better, do that"),
        ],
        "gold": [
            {"id": "layers", "kind": "preference", "must": ["raw", "marts"]},
            {"id": "warehouse", "kind": "fact", "must": ["transform_xs", "transform_l"]},
            {"id": "style", "kind": "preference", "must": ["trailing commas"]},
            {"id": "sqlfluff", "kind": "fact", "must": ["sqlfluff"]},
            {"id": "keypair", "kind": "decision", "must": ["key-pair"]},
        ],
        "noise": ["All Finished", "14 staging models"],
        "secrets": ["Tr4nsf0rm!Snow#2026"],
    },
    {
        "name": "analytics-02-refunds", "order": 36, "project": "analytics", "cwd": "/Users/sam/analytics",
        "session": "a1b2c3d4-0006-4aaa-8bbb-000000000036", "start": "2026-11-30T08:45:00", "split": "fresh4",
        "turns": [
            ("u", "the orders mart double counts refunds. stg_refunds has one row per refund line, not per refund"),
            ("a", "", {"tools": [("Bash", {"command": "dbt show --inline \"select order_id, count(*) from {{ ref('stg_refunds') }} group by 1 having count(*) > 1\""}, "order_id | count\n---------+------\n  10442  |  3\n  10519  |  2\n")]}),
            ("a", "Root cause: `fct_orders` joins `stg_refunds` at line grain, so an order with a 3-line refund subtracts it three times. Fix: aggregate refunds to `refund_id` in a new `int_refunds` model and join that."),
            ("u", "perfect"),
            ("u", "from now on every fct_ model needs a unique test on its primary key"),
            ("a", "Added `unique` and `not_null` tests on `order_id`."),
            ("u", "also we moved prod to TRANSFORM_XL, L was too slow for the nightly run"),
            ("a", "Updated `profiles.yml` targets."),
            ("u", "nightly run is 03:00 europe/berlin"),
        ],
        "gold": [
            {"id": "refunds", "kind": "bugfix", "must": ["int_refunds", "refund"]},
            {"id": "unique", "kind": "preference", "must": ["unique test"]},
            {"id": "warehouse", "kind": "fact", "must": ["transform_xl"]},
            {"id": "nightly", "kind": "fact", "must": ["03:00"]},
        ],
        "updates": [["analytics-01-dbt:warehouse", "analytics-02-refunds:warehouse"]],
        "noise": ["perfect", "Updated `profiles.yml`"],
        "secrets": [],
    },
    {
        "name": "starfall-01-godot", "order": 37, "project": "starfall", "cwd": "/home/kim/godot/starfall",
        "session": "a1b2c3d4-0007-4aaa-8bbb-000000000037", "start": "2026-11-22T19:00:00", "split": "fresh4",
        "turns": [
            ("u", "godot 4.2 project, gdscript only, no C#. target is 60fps on a steam deck"),
            ("a", "", {"tools": [("Bash", {"command": "ls"}, "project.godot\nscenes/\nscripts/\nassets/\n")]}),
            ("a", "Scenes are under `scenes/`, scripts under `scripts/`."),
            ("u", "signals over direct node references between scenes pls, it's bitten us before"),
            ("a", "OK, I'll wire the HUD through signals."),
            ("u", "the save files are in user://saves, json, versioned with a 'v' field"),
            ("a", "Got it."),
            ("u", "lol the player falls through the floor after respawn"),
            ("a", "", {"tools": [("Grep", {"pattern": "func respawn", "path": "scripts"}, "scripts/player.gd:88:func respawn():\n")]}),
            ("a", "The respawn sets `global_position` before the physics body is re-enabled, so the first physics frame has no collision. I moved the teleport into `_physics_process` via a `pending_respawn` flag."),
            ("u", "yep fixed"),
        ],
        "gold": [
            {"id": "godot", "kind": "fact", "must": ["godot 4.2"]},
            {"id": "csharp", "kind": "preference", "must": ["no c#"]},
            {"id": "fps", "kind": "fact", "must": ["60fps", "steam deck"]},
            {"id": "signals", "kind": "preference", "must": ["signals"]},
            {"id": "saves", "kind": "fact", "must": ["user://saves"]},
            {"id": "respawn", "kind": "bugfix", "must": ["respawn", "physics"]},
        ],
        "noise": ["lol", "Got it", "Scenes are under"],
        "secrets": [],
    },
    {
        "name": "starfall-02-release", "order": 38, "project": "starfall", "cwd": "/home/kim/godot/starfall", "v2": True,
        "session": "a1b2c3d4-0008-4aaa-8bbb-000000000038", "start": "2026-11-29T20:30:00", "split": "fresh4",
        "turns": [
            ("u", "we bumped to godot 4.3 for the new tilemap layers"),
            ("a", "", {"tools": [("Bash", {"command": "godot --headless --quit"}, "Godot Engine v4.3.stable.official.77dcf97d8\nWARNING: TileMap is deprecated\n")]}),
            ("a", "The project opens in 4.3; two deprecation warnings in `world.gd`."),
            ("u", "itch.io builds: butler push builds/linux kim/starfall:linux-beta"),
            ("a", "Added a `make itch` target."),
            ("u", "which export preset do we use for the deck?"),
            ("a", "The `Linux/X11` preset with `texture_format/s3tc` on; that's what the Deck expects."),
            ("u", "right, thanks"),
        ],
        "gold": [
            {"id": "godot", "kind": "fact", "must": ["4.3"]},
            {"id": "butler", "kind": "fact", "must": ["butler push"]},
            {"id": "preset", "kind": "fact", "must": ["linux/x11"]},
        ],
        "updates": [["starfall-01-godot:godot", "starfall-02-release:godot"]],
        "noise": ["deprecation warnings", "right, thanks"],
        "secrets": [],
    },
]
