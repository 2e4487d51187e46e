"""Voices set C (see build_voices.py): a Flutter developer who types fast and never fixes typos, a
terse ops engineer on Terraform, a French-speaking Laravel developer. Labels written with the
conversations, before any run."""

FLUTTER = ("Running \"flutter pub get\" in fieldlog...\nResolving dependencies... \nGot dependencies!\n"
           "Launching lib/main.dart on Pixel 7 in debug mode...\n✓ Built build/app/outputs/flutter-apk/app-debug.apk.\n"
           "I/flutter (12031): sync: 0 pending\n")
FLUTTER_ERR = ("E/flutter (12031): [ERROR:flutter/runtime/dart_vm_initializer.cc(41)] Unhandled Exception: DatabaseException(database is locked)\n"
               "#0      SqfliteDatabaseMixin.txnRawInsert (package:sqflite_common/src/database_mixin.dart:567:7)\n")
TF_PLAN = ("Terraform will perform the following actions:\n\n  # aws_db_instance.main will be updated in-place\n"
           "  ~ resource \"aws_db_instance\" \"main\" {\n      ~ instance_class = \"db.t3.medium\" -> \"db.r6g.large\"\n    }\n\n"
           "Plan: 0 to add, 1 to change, 0 to destroy.\n")
TF_INIT = "Initializing the backend...\nSuccessfully configured the backend \"s3\"!\nTerraform has been successfully initialized!\n"
ARTISAN = ("   PASS  Tests\\Unit\\IsbnTest\n  ✓ it validates isbn13\n   FAIL  Tests\\Feature\\LoanTest\n"
           "  ⨯ it computes the due date\n  Failed asserting that '2026-12-01' matches expected '2026-11-30'.\n\n"
           "  Tests:    1 failed, 41 passed (97 assertions)\n  Duration: 2.31s\n")

VOICES_C = [
    {
        "name": "v-fieldlog-01-start", "order": 318, "project": "fieldlog", "cwd": "/home/sam/proj/fieldlog",
        "session": "d1e2f3a4-0018-4ccc-8ddd-000000000318", "start": "2026-11-02T13:00:00",
        "turns": [
            ("u", "hey so fieldlog is a flutter app for farm insepctors, they log visits offline and it syncs later. flutter 3.24, dart 3.5"),
            ("a", "Let me run it.", {"tools": [("Bash", {"command": "flutter run"}, FLUTTER)]}),
            ("a", "It builds and runs on the Pixel 7 emulator. How is the offline data stored?"),
            ("u", "sqflite localy, and teh backend is firebase firestore. state managment is riverpod, pls dont add bloc or provider"),
            ("a", "OK: sqflite on device, Firestore as the backend, Riverpod for state."),
            ("u", "also we suport android 8+ only, no ios yet, inspectors all have cheap androids"),
            ("a", "Noted: minSdk 26."),
            ("u", "cool ty"),
        ],
        "gold": [
            {"id": "flutter", "kind": "fact", "must": ["flutter 3.24", "dart 3.5"]},
            {"id": "storage", "kind": "fact", "must": ["sqflite", "firestore"]},
            {"id": "riverpod", "kind": "preference", "must": ["riverpod", "bloc"]},
            {"id": "android", "kind": "fact", "must": ["android 8+"]},
        ],
        "noise": ["cool ty", "Got dependencies", "Let me run it", "0 pending"],
        "secrets": [],
    },
    {
        "name": "v-fieldlog-02-locked", "order": 319, "project": "fieldlog", "cwd": "/home/sam/proj/fieldlog",
        "session": "d1e2f3a4-0019-4ccc-8ddd-000000000319", "start": "2026-11-04T10:20:00",
        "turns": [
            ("u", "app crashes wehn inspector saves a visit while sync is runing. 'database is locked'"),
            ("a", "", {"tools": [("Bash", {"command": "adb logcat -d | grep flutter | tail -2"}, FLUTTER_ERR),
                                 ("Grep", {"pattern": "openDatabase", "path": "lib"}, "lib/db/visits.dart:14:  final db = await openDatabase(path);\nlib/sync/worker.dart:22:  final db = await openDatabase(path);\n")]}),
            ("a", "The crash happens because the sync worker opens its own second connection with `openDatabase`, and sqflite serialises writes per connection only, so the two writers collide and one gets `database is locked`. I made both use the single shared database from `dbProvider` and wrapped the sync's writes in one transaction; saving during sync works now."),
            ("u", "omg thx that was driving me nuts"),
            ("u", "ok so for photos. store in firebase storage or in firestore as base64? i dunno"),
            ("a", "Firebase Storage: Firestore documents are capped at 1 MiB and base64 adds a third; store the file in Storage and keep only its path in the visit document."),
            ("u", "storage it is, and compress to max 1600px jpeg before upload"),
            ("a", "OK — resize to 1600 px on the long side, JPEG, then upload."),
        ],
        "gold": [
            {"id": "locked", "kind": "bugfix", "must": ["database is locked", "single shared database"]},
            {"id": "photos", "kind": "decision", "must": ["storage", "1600"]},
        ],
        "noise": ["driving me nuts", "i dunno", "txnRawInsert"],
        "secrets": [],
    },
    {
        "name": "v-fieldlog-03-release", "order": 320, "project": "fieldlog", "cwd": "/home/sam/proj/fieldlog",
        "session": "d1e2f3a4-0020-4ccc-8ddd-000000000320", "start": "2026-11-11T16:40:00",
        "turns": [
            ("u", "we have to realese to play store internal track friday"),
            ("a", "I can set up fastlane for the upload. Do you have the service account JSON?"),
            ("u", "yea its in 1password, dont commit it. the keystore pasword is fl-K3ystore-2026-x, same deal"),
            ("a", "Both will come from CI secrets; nothing goes in the repo."),
            ("u", "oh and we bumped to flutter 3.27 yesterday bc of a plugin"),
            ("a", "Updated `.fvmrc` and CI to Flutter 3.27."),
            ("u", "version name format is yyyy.mm.build, like 2026.11.3"),
            ("a", "I'll derive versionName that way in the fastlane lane."),
            ("u", "great thx"),
        ],
        "gold": [
            {"id": "flutter", "kind": "fact", "must": ["flutter 3.27"]},
            {"id": "version", "kind": "preference", "must": ["yyyy.mm.build"]},
        ],
        "updates": [["v-fieldlog-01-start:flutter", "v-fieldlog-03-release:flutter"]],
        "noise": ["great thx", "same deal"],
        "secrets": ["fl-K3ystore-2026-x"],
    },
    {
        "name": "v-lumen-01-tf", "order": 321, "project": "lumen-infra", "cwd": "/home/ops/lumen-infra",
        "session": "d1e2f3a4-0021-4ccc-8ddd-000000000321", "start": "2026-11-03T07:00:00",
        "turns": [
            ("u", "terraform 1.8. aws eu-west-1. state in s3 bucket lumen-tfstate, lock table lumen-tflock"),
            ("a", "", {"tools": [("Bash", {"command": "terraform init"}, TF_INIT)]}),
            ("a", "Initialised against the S3 backend."),
            ("u", "modules in modules/, one dir per env under envs/. no workspaces"),
            ("a", "OK: envs/dev, envs/staging, envs/prod, each calling the shared modules."),
            ("u", "tag everything: owner, env, cost-center. mandatory"),
            ("a", "I'll add a default_tags block in each provider with those three."),
            ("u", "prod rds: db.t3.medium. staging rds: db.t3.small"),
            ("a", "Noted."),
            ("u", "apply only from atlantis. never local apply"),
            ("a", "Understood."),
        ],
        "gold": [
            {"id": "tf", "kind": "fact", "must": ["terraform 1.8"]},
            {"id": "region", "kind": "fact", "must": ["eu-west-1"]},
            {"id": "state", "kind": "fact", "must": ["lumen-tfstate"]},
            {"id": "layout", "kind": "preference", "must": ["envs/", "no workspaces"]},
            {"id": "tags", "kind": "preference", "must": ["owner", "cost-center"]},
            {"id": "prodrds", "kind": "fact", "must": ["prod rds", "db.t3.medium"]},
            {"id": "stagingrds", "kind": "fact", "must": ["staging rds", "db.t3.small"]},
            {"id": "atlantis", "kind": "preference", "must": ["atlantis", "never local apply"]},
        ],
        "distinct": [["v-lumen-01-tf:prodrds", "v-lumen-01-tf:stagingrds"]],
        "noise": ["Successfully configured the backend", "Initialised against the S3 backend"],
        "secrets": [],
    },
    {
        "name": "v-lumen-02-rds", "order": 322, "project": "lumen-infra", "cwd": "/home/ops/lumen-infra",
        "session": "d1e2f3a4-0022-4ccc-8ddd-000000000322", "start": "2026-11-07T07:30:00",
        "turns": [
            ("u", "prod db cpu 95% all week. upsizing"),
            ("a", "", {"tools": [("Bash", {"command": "cd envs/prod && terraform plan"}, TF_PLAN)]}),
            ("a", "The plan changes prod's instance class from db.t3.medium to db.r6g.large in place (a short failover)."),
            ("u", "go. prod rds is db.r6g.large now. staging stays"),
            ("a", "Opened the Atlantis PR; staging is untouched at db.t3.small."),
            ("u", "also grafana admin pw Gr4f-Lumen-ops-771, rotate later, put in ssm"),
            ("a", "Stored it as a SecureString in SSM at `/lumen/grafana/admin`, nothing in the repo."),
            ("u", "k"),
        ],
        "gold": [
            {"id": "prodrds", "kind": "fact", "must": ["prod rds", "db.r6g.large"]},
        ],
        "updates": [["v-lumen-01-tf:prodrds", "v-lumen-02-rds:prodrds"]],
        "noise": ["Plan: 0 to add", "cpu 95% all week"],
        "secrets": ["Gr4f-Lumen-ops-771"],
    },
    {
        "name": "v-lumen-03-dns", "order": 323, "project": "lumen-infra", "cwd": "/home/ops/lumen-infra",
        "session": "d1e2f3a4-0023-4ccc-8ddd-000000000323", "start": "2026-11-14T08:10:00",
        "turns": [
            ("u", "dns. route53 or cloudflare?"),
            ("a", "Route 53 keeps it all in AWS and in Terraform's AWS provider; Cloudflare adds a CDN and DDoS protection in front, but a second provider and account."),
            ("u", "cloudflare. we want the waf"),
            ("a", "OK — Cloudflare for DNS, with the WAF; I'll add the cloudflare provider with its token from SSM."),
            ("u", "hmm no. security says keep dns in aws for now. route53. waf via aws waf on the alb"),
            ("a", "Understood: Route 53 for DNS, AWS WAF attached to the ALB; no Cloudflare."),
            ("u", "yes"),
            ("u", "ttl 300 on all records except the apex"),
            ("a", "Done in the module's defaults."),
        ],
        "gold": [
            {"id": "cf", "kind": "decision", "must": ["cloudflare", "waf"]},
            {"id": "r53", "kind": "decision", "must": ["route 53", "aws waf"]},
            {"id": "ttl", "kind": "preference", "must": ["ttl 300"]},
        ],
        "updates": [["v-lumen-03-dns:cf", "v-lumen-03-dns:r53"]],
        "noise": ["Done in the module's defaults"],
        "secrets": [],
    },
    {
        "name": "v-bookworm-01-setup", "order": 324, "project": "bookworm", "cwd": "/var/www/bookworm",
        "session": "d1e2f3a4-0024-4ccc-8ddd-000000000324", "start": "2026-11-05T08:45:00",
        "turns": [
            ("u", "Bonjour. I work on Bookworm, it is the application of loans for the library of my town. It is Laravel 11 with PHP 8.3 and MariaDB 10.11."),
            ("a", "Bonjour! Let me run the tests.", {"tools": [("Bash", {"command": "php artisan test"}, ARTISAN)]}),
            ("a", "41 pass, one fails: the loan due date is one day late."),
            ("u", "Yes, I know this one. A loan is for 21 days, and the library is closed on sunday, so if the due date falls on sunday, it must go to monday. Maybe the bug is there."),
            ("a", "", {"tools": [("Read", {"file_path": "/var/www/bookworm/app/Models/Loan.php"}, "  31\t        $due = $this->start->addDays(21);\n  32\t        if ($due->isSunday()) $due = $due->addDay();\n")]}),
            ("a", "The due date test fails because `addDays` mutates the Carbon instance, so `$this->start` is moved too and the check runs on the wrong date. I switched `start` to `CarbonImmutable` in the model casts; the test passes."),
            ("u", "Ah, the mutable dates, classic. For all the project we use CarbonImmutable then, not Carbon."),
            ("a", "I'll set `Date::use(CarbonImmutable::class)` in the AppServiceProvider."),
            ("u", "Merci beaucoup!"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["laravel 11", "php 8.3"]},
            {"id": "rule", "kind": "fact", "must": ["21 days", "sunday"]},
            {"id": "due", "kind": "bugfix", "must": ["carbonimmutable", "mutates"]},
            {"id": "immutable", "kind": "preference", "must": ["carbonimmutable", "not carbon"]},
        ],
        "noise": ["Merci beaucoup", "classic", "97 assertions", "Let me run the tests"],
        "secrets": [],
    },
    {
        "name": "v-bookworm-02-mail", "order": 325, "project": "bookworm", "cwd": "/var/www/bookworm",
        "session": "d1e2f3a4-0025-4ccc-8ddd-000000000325", "start": "2026-11-09T09:30:00",
        "turns": [
            ("u", "Now we want to send a reminder by email 3 days before the due date. Which is better, a scheduled command or a queued job?"),
            ("a", "A scheduled command that runs daily and dispatches one queued mail per loan due in three days: the scheduler decides when, the queue retries failed sends."),
            ("u", "D'accord, we do like that."),
            ("a", "I'll add `loans:remind` to the scheduler at 08:00 and a `LoanReminder` mailable."),
            ("u", "The SMTP of the town is smtp.mairie-exemple.fr port 587, and the password is Biblio#Smtp2026 — please put it only in the .env on the server."),
            ("a", "Only in the server's `.env`; the repo's `.env.example` gets a placeholder."),
            ("u", "And the emails are always in French, never in English, the users are old people of the town."),
            ("a", "Understood, French only."),
            ("u", "Also the loan is now 28 days, the council voted it last week."),
            ("a", "Changed the loan length to 28 days; the Sunday rule stays."),
        ],
        "gold": [
            {"id": "remind", "kind": "decision", "must": ["scheduled command", "queued"]},
            {"id": "smtp", "kind": "fact", "must": ["smtp.mairie-exemple.fr", "587"]},
            {"id": "french", "kind": "preference", "must": ["french", "never in english"]},
            {"id": "rule", "kind": "fact", "must": ["28 days"]},
        ],
        "updates": [["v-bookworm-01-setup:rule", "v-bookworm-02-mail:rule"]],
        "noise": ["D'accord", "old people of the town"],
        "secrets": ["Biblio#Smtp2026"],
    },
]
