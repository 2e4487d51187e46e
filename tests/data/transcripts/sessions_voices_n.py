"""Voices set N (see build_voices.py), written by capture helper H8 on 2026-12-03 in voices the earlier sets
lack: a retired mainframe programmer (formal British prose, semicolons, long sentences), an Australian marine
biologist (slang, "reckon", "heaps"), a teenage Minecraft modder (lowercase, "ngl", "fr"), a compliance officer
who dictates policy as numbered points and "per our discussion", a pair-programming user who answers the
assistant's questions in one word ("the second", "yep, that one"), and a Nordic game developer who writes
in commit-message style. Each second session changes what the first stated in the shapes capture misses:
a pronoun subject ("it listens on 5434 now"), the new value in the sentence after the change ("We left
Heroku. Render hosts it now."), "now X" with no old value, "swapped X for Y", "no longer X"; noise is
questions, hedges, plans, progress, one-off observations of tool output, restatements and feelings.
Split by name hash as every voices set (names chosen before the split was computed). Labels written
with the conversations, before any capture run."""

JCL_DIFF = ("--- a/batch/PAYRUN.jcl\n+++ b/jobs/payrun.py\n@@\n-//PAYRUN   JOB (ACCT),'PAYROLL',CLASS=A\n"
            "-//STEP01   EXEC PGM=PAYCALC\n+def main():\n+    run_payroll(period=current_period())\n")
PYTEST_Q = ("============================= test session starts ==============================\nplatform linux -- Python 3.11.9, pytest-8.2.1\n"
            "collected 57 items\n\ntests/test_paycalc.py ........................................         [ 70%]\n"
            "tests/test_tax.py .................                                     [100%]\n\n============================== 57 passed in 4.02s ===============================\n")
COBOL_SRC = ("       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PAYCALC.\n       DATA DIVISION.\n       WORKING-STORAGE SECTION.\n"
             "       01 WS-GROSS      PIC S9(7)V99 COMP-3.\n       01 WS-TAX        PIC S9(7)V99 COMP-3.\n")
RSCRIPT = ("> source('R/cover_model.R')\nFitting GLMM ... \nboundary (singular) fit: see help('isSingular')\n"
           "   site transect  coral_cover\n1  LIZ01       T1        0.412\n2  LIZ01       T2        0.388\n3  OPR04       T1        0.297\n")
DVC = "Running stage 'segment':\n> python src/segment.py --model models/unet_v3.pt\nProcessed 1820 quadrat images in 612.4s\nUpdating lock file 'dvc.lock'\n"
GRADLE_FABRIC = ("> Task :compileJava\n> Task :remapJar\n\nBUILD SUCCESSFUL in 23s\n7 actionable tasks: 4 executed, 3 up-to-date\n")
MC_CRASH = ("---- Minecraft Crash Report ----\n// Who set us up the TNT?\n\nDescription: Ticking block entity\n\n"
            "java.lang.NullPointerException: Cannot invoke \"net.minecraft.world.World.isClient()\" because \"this.world\" is null\n"
            "\tat com.tinkerbox.block.entity.CrusherBlockEntity.tick(CrusherBlockEntity.java:41)\n")
GO_TEST_KYC = ("=== RUN   TestScreening\n--- PASS: TestScreening (0.21s)\n=== RUN   TestRetention\n--- PASS: TestRetention (0.02s)\n"
               "PASS\nok  \tgithub.com/northbank/kyc-gate/internal/screening\t0.412s\n")
AUDIT_Q = " count | action\n-------+-----------------\n  9120 | document.view\n   311 | document.export\n    12 | record.delete\n(3 rows)\n"
CARGO_AXUM = ("   Compiling hydrant v0.4.0 (/home/mo/src/hydrant)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 38.71s\n"
              "     Running `target/debug/hydrant`\n2026-11-18T09:12:01Z  INFO hydrant: listening on 0.0.0.0:8088\n")
PSQL_TS = ("                 List of relations\n Schema |      Name       |    Type     | Owner\n--------+-----------------+-------------+-------\n"
           " public | readings        | table       | mo\n public | readings_hourly | view        | mo\n(2 rows)\n")
BEVY_RUN = ("2026-11-21T20:01:11.412Z  INFO bevy_render::renderer: AdapterInfo { name: \"AMD Radeon RX 6700 XT\", backend: Vulkan }\n"
            "2026-11-21T20:01:11.990Z  WARN bevy_asset: asset 'audio/wind.ogg' took 412ms to load\n")
CHANGELOG = "## 0.7.0\n- feat: snow shader\n- fix: ferry clipping through dock\n- chore: bump bevy\n"

VOICES_N = [
    {
        "name": "v-quarry-01-payroll", "order": 427, "project": "quarry-payroll", "cwd": "/home/edmund/src/quarry-payroll",
        "session": "d1e2f3a4-0127-4ccc-8ddd-000000000427", "start": "2026-11-10T08:30:00",
        "turns": [
            ("u", "Good morning. By way of introduction: I wrote COBOL for the county council for thirty-one years, and I have been "
                  "asked, in my retirement, to help move the payroll batch off the mainframe; forgive me if my Python is somewhat quaint."),
            ("a", "Good morning. Could you tell me what the batch does and what it should run on once it is moved?"),
            ("u", "Certainly. The payroll run is to be rewritten in Python 3.11; the target is a PostgreSQL 15 database, "
                  "hosted on the council's own VMware cluster, not in any public cloud."),
            ("a", "", {"tools": [("Read", {"file_path": "/home/edmund/src/quarry-payroll/legacy/PAYCALC.cbl"}, COBOL_SRC)]}),
            ("a", "PAYCALC keeps gross pay and tax as packed decimals (`COMP-3`) with two decimal places."),
            ("u", "Quite so. I must insist on one point: all monetary amounts are to be held as Decimal, never as float; "
                  "rounding is half-up to the penny, as the old PIC clauses did."),
            ("a", "Understood: `decimal.Decimal` throughout, `ROUND_HALF_UP` to two places."),
            ("u", "I wonder whether we ought to keep the old report layout; I shall ask the payroll office and come back to you."),
            ("a", "", {"thinking": "He wants the JCL steps mapped to Python entry points; pytest for the calc module.",
                       "tools": [("Bash", {"command": "python -m pytest -q tests"}, PYTEST_Q)]}),
            ("a", "All 57 tests pass against the port of PAYCALC."),
            ("u", "Splendid; that is rather quicker than the mainframe ever managed. The nightly run starts at 01:30, "
                  "after the ledger close, and it must never overlap with it."),
            ("a", "I'll schedule it with a systemd timer at 01:30 and a lock that waits for the ledger close to finish."),
            ("u", "Thank you kindly; I shall leave it there for today."),
        ],
        "gold": [
            {"id": "python", "kind": "fact", "must": ["python 3.11"]},
            {"id": "db", "kind": "fact", "must": ["postgresql 15"]},
            {"id": "hosting", "kind": "fact", "must": ["vmware"]},
            {"id": "decimal", "kind": "preference", "must": ["decimal", "never as float"]},
            {"id": "schedule", "kind": "fact", "must": ["01:30", "ledger close"]},
        ],
        "noise": ["thirty-one years", "forgive me if my Python", "I wonder whether we ought to keep", "rather quicker than the mainframe",
                  "I shall leave it there"],
        "secrets": [],
    },
    {
        "name": "v-quarry-02-cutover", "order": 428, "project": "quarry-payroll", "cwd": "/home/edmund/src/quarry-payroll",
        "session": "d1e2f3a4-0128-4ccc-8ddd-000000000428", "start": "2026-11-24T09:05:00",
        "turns": [
            ("u", "Good morning again. There have been developments since we last spoke; the infrastructure people have had their way."),
            ("a", "What changed?"),
            ("u", "The database has been upgraded. It is PostgreSQL 16 now, on the same cluster."),
            ("a", "I'll update the connection check and the CI image to 16."),
            ("u", "Furthermore, the nightly run has been moved; it begins at 02:15 instead, because the ledger close now runs later."),
            ("a", "", {"tools": [("Bash", {"command": "git diff --stat HEAD~1 -- batch jobs"}, JCL_DIFF)]}),
            ("a", "The timer now fires at 02:15; the ledger-close lock is unchanged."),
            ("u", "The database password for the service account is Quarry!Ledger2026, should you need it for the test harness; "
                  "please do not write it into any file that is committed."),
            ("a", "I'll read it from `PGPASSWORD` in the harness's environment and keep it out of the repository."),
            ("u", "Perhaps next month we might look at the pension calculations, though I make no promises."),
            ("u", "That will be all for today, thank you."),
        ],
        "gold": [
            {"id": "db", "kind": "fact", "must": ["postgresql 16"]},
            {"id": "schedule", "kind": "fact", "must": ["02:15"]},
        ],
        "noise": ["the infrastructure people have had their way", "Perhaps next month", "That will be all for today"],
        "secrets": ["Quarry!Ledger2026"],
        "updates": [["v-quarry-01-payroll:db", "v-quarry-02-cutover:db"],
                    ["v-quarry-01-payroll:schedule", "v-quarry-02-cutover:schedule"]],
    },
    {
        "name": "v-reefwatch-01-survey", "order": 429, "project": "reefwatch", "cwd": "/home/kirra/uni/reefwatch",
        "session": "d1e2f3a4-0129-4ccc-8ddd-000000000429", "start": "2026-11-11T14:00:00",
        "turns": [
            ("u", "g'day! so reefwatch is our coral survey pipeline, heaps of quadrat photos from Lizard Island every season"),
            ("u", "segmentation's a UNet in PyTorch, the stats side is all R with lme4, reckon that split's fine for now"),
            ("a", "", {"tools": [("Bash", {"command": "dvc repro segment"}, DVC)]}),
            ("a", "The segment stage processed 1,820 quadrat images."),
            ("u", "bloody hell that took ages. anyway, raw images live on the uni's S3-compatible store, bucket is reef-raw-2026"),
            ("a", "Should derived masks go in the same bucket?"),
            ("u", "nah, masks go in reef-masks, keep raw read-only always. we never ever overwrite raw images"),
            ("a", "", {"thinking": "Singular fit in the GLMM: site random effect variance near zero.",
                       "tools": [("Bash", {"command": "Rscript -e \"source('R/cover_model.R')\""}, RSCRIPT)]}),
            ("a", "The model fit is singular: the site random effect has near-zero variance with only three sites."),
            ("u", "yeah righto, might be worth dropping site as random effect, dunno, I'll chat to my supervisor"),
            ("u", "cheers mate, I'm off to the pub, catch ya"),
        ],
        "gold": [
            {"id": "unet", "kind": "fact", "must": ["unet", "pytorch"]},
            {"id": "rstats", "kind": "fact", "must": ["lme4"]},
            {"id": "bucket", "kind": "fact", "must": ["reef-raw-2026"]},
            {"id": "masks", "kind": "preference", "must": ["reef-masks", "read-only"]},
        ],
        "noise": ["bloody hell that took ages", "might be worth dropping site", "off to the pub", "g'day"],
        "secrets": [],
    },
    {
        "name": "v-reefwatch-02-move", "order": 430, "project": "reefwatch", "cwd": "/home/kirra/uni/reefwatch",
        "session": "d1e2f3a4-0130-4ccc-8ddd-000000000430", "start": "2026-11-26T10:20:00",
        "turns": [
            ("u", "hey again. uni killed the old store over the break, total nightmare"),
            ("u", "raw photos moved to a new bucket. it's called reef-raw-2027 and it's on the research cloud now"),
            ("a", "I'll point `dvc remote` and the segment stage at reef-raw-2027."),
            ("u", "also swapped the UNet for a SegFormer, way better on the branching corals"),
            ("a", "Updated `params.yaml`: model SegFormer-B2, same input size."),
            ("u", "storage key for the research cloud is AKIAQ3EXAMPLE7REEFK2 with secret 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, dont put that in git pls"),
            ("a", "They go into `~/.aws/credentials` under a `reef` profile, not the repo."),
            ("u", "sweet as. no idea if the supervisor will like it but whatever"),
        ],
        "gold": [
            {"id": "bucket", "kind": "fact", "must": ["reef-raw-2027"]},
            {"id": "segformer", "kind": "decision", "must": ["segformer"]},
        ],
        "noise": ["total nightmare", "no idea if the supervisor", "sweet as"],
        "secrets": ["AKIAQ3EXAMPLE7REEFK2", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYReEfWaTcH2"],
        "updates": [["v-reefwatch-01-survey:bucket", "v-reefwatch-02-move:bucket"],
                    ["v-reefwatch-01-survey:unet", "v-reefwatch-02-move:segformer"]],
    },
    {
        "name": "v-tinkerbox-01-mod", "order": 431, "project": "tinkerbox", "cwd": "/home/jayden/mods/tinkerbox",
        "session": "d1e2f3a4-0131-4ccc-8ddd-000000000431", "start": "2026-11-12T16:40:00",
        "turns": [
            ("u", "yo so im making a minecraft mod called tinkerbox lol"),
            ("u", "its fabric not forge, for minecraft 1.20.1, fabric api 0.92 fr"),
            ("a", "", {"tools": [("Bash", {"command": "./gradlew build"}, GRADLE_FABRIC)]}),
            ("a", "The mod builds."),
            ("u", "ngl that was fast. ok so theres a crusher block and it crashes the game when i place it"),
            ("a", "", {"thinking": "world is null during tick: the ticker is registered on the client too or tick runs before setWorld.",
                       "tools": [("Read", {"file_path": "/home/jayden/mods/tinkerbox/run/crash-reports/crash-2026-11-12_16.52.11-server.txt"}, MC_CRASH)]}),
            ("a", "The crash is a NullPointerException in `CrusherBlockEntity.tick` because the ticker runs on the client side where the block entity has no world yet. "
                  "The fix: `getTicker` now returns a ticker only when `!world.isClient`, so the crusher ticks on the server only."),
            ("u", "omg it works now thx"),
            ("u", "oh and all item ids are snake_case like crusher_block, mojang style, dont do camelCase ever"),
            ("a", "Noted: snake_case registry ids only."),
            ("u", "lowkey should i add a config screen?? idk maybe later"),
            ("u", "gtg dinner"),
        ],
        "gold": [
            {"id": "loader", "kind": "fact", "must": ["fabric", "1.20.1"]},
            {"id": "crash", "kind": "bugfix", "must": ["crusherblockentity.tick", "isclient"]},
            {"id": "ids", "kind": "preference", "must": ["snake_case"]},
        ],
        "noise": ["ngl that was fast", "omg it works now", "should i add a config screen", "gtg dinner"],
        "secrets": [],
    },
    {
        "name": "v-tinkerbox-02-port", "order": 432, "project": "tinkerbox", "cwd": "/home/jayden/mods/tinkerbox",
        "session": "d1e2f3a4-0132-4ccc-8ddd-000000000432", "start": "2026-11-29T15:10:00",
        "turns": [
            ("u", "ok big news"),
            ("u", "porting to 1.21.1 now, everyone on my server moved"),
            ("a", "I'll bump `minecraft_version` to 1.21.1 and Fabric API to the matching 0.102 line."),
            ("u", "yea and were on neoforge too now not just fabric, using architectury for both"),
            ("a", "Set up Architectury with `common`, `fabric` and `neoforge` subprojects."),
            ("u", "my curseforge token is cf_9Xk2LmQp7Rt4Vw8Zb3Nd6Hj1 for the upload task, pls dont leak it"),
            ("a", "It goes in `~/.gradle/gradle.properties` as `CURSEFORGE_TOKEN`, outside the repo."),
            ("u", "bet. this port is gonna take forever lmao"),
        ],
        "gold": [
            {"id": "version", "kind": "fact", "must": ["1.21.1"]},
            {"id": "neoforge", "kind": "decision", "must": ["neoforge", "architectury"]},
        ],
        "noise": ["ok big news", "everyone on my server moved", "gonna take forever"],
        "secrets": ["cf_9Xk2LmQp7Rt4Vw8Zb3Nd6Hj1"],
        "updates": [["v-tinkerbox-01-mod:loader", "v-tinkerbox-02-port:version"]],
    },
    {
        "name": "v-kycgate-01-policy", "order": 433, "project": "kyc-gate", "cwd": "/srv/work/kyc-gate",
        "session": "d1e2f3a4-0133-4ccc-8ddd-000000000433", "start": "2026-11-13T11:00:00",
        "turns": [
            ("u", "Per our discussion in Tuesday's steering meeting, here are the requirements for kyc-gate, numbered for reference."),
            ("u", "1. Sanctions screening runs against the OFAC and EU consolidated lists on every onboarding.\n"
                  "2. Identity documents are retained for five years after the account closes, then deleted.\n"
                  "3. Every view or export of a document is written to the audit log."),
            ("a", "Thanks. Which service does the screening today?"),
            ("u", "ComplyAdvantage, via their REST API. The team agreed we will not build our own matching."),
            ("a", "", {"tools": [("Bash", {"command": "go test ./internal/screening/... -run 'TestScreening|TestRetention' -v"}, GO_TEST_KYC)]}),
            ("a", "Screening and retention tests pass."),
            ("a", "", {"tools": [("Bash", {"command": "psql kyc -c \"select count(*), action from audit_log group by action\""}, AUDIT_Q)]}),
            ("a", "The audit log holds 9,120 views, 311 exports and 12 deletions so far."),
            ("u", "Noted. For the avoidance of doubt, I am not a developer; please flag anything I have phrased ambiguously."),
            ("u", "The ComplyAdvantage API key is ca_live_7Hq2Mz9Kx4Lp8Vr3Tn6Bw1Yd, please handle it per the secrets policy."),
            ("a", "It goes into Vault at `secret/kyc-gate/complyadvantage`; the service reads it at start-up."),
            ("u", "Thank you. I will circulate minutes."),
        ],
        "gold": [
            {"id": "screening", "kind": "fact", "must": ["ofac", "eu consolidated"]},
            {"id": "retention", "kind": "preference", "must": ["five years"]},
            {"id": "audit", "kind": "preference", "must": ["audit log", "export"]},
            {"id": "vendor", "kind": "decision", "must": ["complyadvantage", "rest api"]},
        ],
        "noise": ["I am not a developer", "I will circulate minutes", "9,120 views"],
        "secrets": ["ca_live_7Hq2Mz9Kx4Lp8Vr3Tn6Bw1Yd"],
    },
    {
        "name": "v-kycgate-02-amend", "order": 434, "project": "kyc-gate", "cwd": "/srv/work/kyc-gate",
        "session": "d1e2f3a4-0134-4ccc-8ddd-000000000434", "start": "2026-11-27T10:30:00",
        "turns": [
            ("u", "Following legal review, two amendments to the requirements circulated on the 13th."),
            ("u", "Amendment A: the retention period is no longer five years. Identity documents are now kept for seven years after closure, per the regulator's letter."),
            ("a", "I'll change `RETENTION_YEARS` to 7 and re-run the deletion job's dry run."),
            ("u", "Amendment B: we are no longer using ComplyAdvantage. Screening moves to Dow Jones Risk & Compliance from January."),
            ("a", "I'll add a Dow Jones client behind the same screening interface and keep ComplyAdvantage until the switch date."),
            ("u", "Could you confirm this does not affect the audit log requirement?"),
            ("a", "It does not: views and exports are still logged the same way."),
            ("u", "Excellent. I appreciate your patience with all of this."),
        ],
        "gold": [
            {"id": "retention", "kind": "preference", "must": ["seven years"]},
            {"id": "vendor", "kind": "decision", "must": ["dow jones"]},
        ],
        "noise": ["Could you confirm this does not affect", "I appreciate your patience", "Following legal review"],
        "secrets": [],
        "updates": [["v-kycgate-01-policy:retention", "v-kycgate-02-amend:retention"],
                    ["v-kycgate-01-policy:vendor", "v-kycgate-02-amend:vendor"]],
    },
    {
        "name": "v-hydrant-01-pairing", "order": 435, "project": "hydrant", "cwd": "/home/mo/src/hydrant",
        "session": "d1e2f3a4-0135-4ccc-8ddd-000000000435", "start": "2026-11-18T09:00:00",
        "turns": [
            ("u", "lets pair on hydrant. its the dashboard for the city's water pressure sensors"),
            ("a", "Happy to. For the HTTP layer, do you want Axum or Actix Web?"),
            ("u", "the first"),
            ("a", "Axum it is. And for storage: plain PostgreSQL, or TimescaleDB for the readings?"),
            ("u", "timescale"),
            ("a", "", {"tools": [("Bash", {"command": "cargo run"}, CARGO_AXUM)]}),
            ("a", "The server is listening on port 8088."),
            ("u", "yep keep 8088, the city firewall only opens that one"),
            ("a", "", {"tools": [("Bash", {"command": "psql hydrant -c '\\d'"}, PSQL_TS)]}),
            ("a", "Should the hourly rollup be a continuous aggregate or a plain view?"),
            ("u", "continuous aggregate, yes that one"),
            ("a", "I'll make `readings_hourly` a continuous aggregate refreshed every 15 minutes."),
            ("u", "hmm not sure about the refresh interval, we can see"),
            ("u", "ok break time"),
        ],
        "gold": [
            {"id": "axum", "kind": "decision", "must": ["axum"]},
            {"id": "timescale", "kind": "decision", "must": ["timescale"]},
            {"id": "port", "kind": "fact", "must": ["8088", "firewall"]},
            {"id": "rollup", "kind": "decision", "must": ["continuous aggregate"]},
        ],
        "noise": ["not sure about the refresh interval", "ok break time", "lets pair on hydrant"],
        "secrets": [],
    },
    {
        "name": "v-hydrant-02-firewall", "order": 436, "project": "hydrant", "cwd": "/home/mo/src/hydrant",
        "session": "d1e2f3a4-0136-4ccc-8ddd-000000000436", "start": "2026-12-01T09:30:00",
        "turns": [
            ("u", "back. city IT changed the firewall rules over the weekend"),
            ("a", "Which port should the server use now?"),
            ("u", "9443, and it has to be TLS now"),
            ("a", "I'll bind to 9443 with rustls and the city's certificate."),
            ("u", "also the alert emails, use Postmark. the server token is 4f1c9a2e-7b3d-4e8f-a6c5-91d2e0b7f3a8"),
            ("a", "I'll read the Postmark token from `POSTMARK_TOKEN` in the systemd unit's environment file."),
            ("u", "cool. i think thats enough for today"),
        ],
        "gold": [
            {"id": "port", "kind": "fact", "must": ["9443"]},
            {"id": "postmark", "kind": "decision", "must": ["postmark"]},
        ],
        "noise": ["i think thats enough for today", "changed the firewall rules over the weekend"],
        "secrets": ["4f1c9a2e-7b3d-4e8f-a6c5-91d2e0b7f3a8"],
        "updates": [["v-hydrant-01-pairing:port", "v-hydrant-02-firewall:port"]],
    },
    {
        "name": "v-fjell-01-bevy", "order": 437, "project": "fjell", "cwd": "/home/sigrid/games/fjell",
        "session": "d1e2f3a4-0137-4ccc-8ddd-000000000437", "start": "2026-11-21T19:50:00",
        "turns": [
            ("u", "feat: start fjell, small ferry game, Rust + Bevy 0.14"),
            ("a", "", {"tools": [("Bash", {"command": "cargo run --release"}, BEVY_RUN)]}),
            ("a", "The game starts on Vulkan; the wind sound took 412 ms to load."),
            ("u", "chore: assets are OGG for audio and KTX2 for textures, no PNG in release builds"),
            ("a", "I'll add a build check that fails on PNG files under `assets/` in release."),
            ("u", "fix: ferry clipping through dock. cause was the collider on the dock being a trimesh, ferry tunnels through at speed"),
            ("a", "The ferry tunnels through because a trimesh collider has no volume and the ferry moves more than its own thickness per step. "
                  "The fix: the dock now uses a convex cuboid collider and the ferry has continuous collision detection (CCD) enabled."),
            ("u", "docs: releases go to itch.io via butler, channel linux-x64 and windows-x64"),
            ("a", "Added a `release` just recipe that pushes both channels with butler."),
            ("u", "wip: maybe a snow shader, not sure yet"),
            ("u", "heh, the wind took 412 ms, typical"),
        ],
        "gold": [
            {"id": "engine", "kind": "fact", "must": ["bevy 0.14"]},
            {"id": "assets", "kind": "preference", "must": ["ogg", "ktx2"]},
            {"id": "clip", "kind": "bugfix", "must": ["cuboid", "ccd"]},
            {"id": "release", "kind": "fact", "must": ["itch.io", "butler"]},
        ],
        "noise": ["maybe a snow shader", "the wind took 412 ms"],
        "secrets": [],
    },
    {
        "name": "v-fjell-02-bump", "order": 438, "project": "fjell", "cwd": "/home/sigrid/games/fjell",
        "session": "d1e2f3a4-0138-4ccc-8ddd-000000000438", "start": "2026-12-02T20:15:00",
        "turns": [
            ("u", "chore: bump bevy. we are on 0.15 now"),
            ("a", "Bumped `bevy` to 0.15 and ported the `Camera3dBundle` spawns to required components."),
            ("a", "", {"tools": [("Read", {"file_path": "/home/sigrid/games/fjell/CHANGELOG.md"}, CHANGELOG)]}),
            ("u", "feat: releases also go to Steam now, app id 3312870, via steamcmd in CI"),
            ("a", "Added a Steam upload job with steamcmd for app 3312870 beside the itch.io push."),
            ("u", "steam build account password is Fjord-Ferry_88x, keep it in the CI secrets only"),
            ("a", "Stored as the `STEAM_PASSWORD` secret in CI; it is not in any file."),
            ("u", "ugh the changelog is a mess, whatever"),
        ],
        "gold": [
            {"id": "engine", "kind": "fact", "must": ["bevy", "0.15"]},
            {"id": "steam", "kind": "fact", "must": ["steam", "3312870"]},
        ],
        "noise": ["the changelog is a mess"],
        "secrets": ["Fjord-Ferry_88x"],
        "updates": [["v-fjell-01-bevy:engine", "v-fjell-02-bump:engine"]],
        "distinct": [["v-fjell-01-bevy:release", "v-fjell-02-bump:steam"]],
    },
]
