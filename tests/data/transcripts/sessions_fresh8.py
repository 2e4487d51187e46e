"""Eighth fresh set ("fresh8"): fourteen conversations written by a helper who had not read the
capture rules (nothing under cavemem/memory/capture/, its tests, the classifier trainer, or any
other sessions_*.py beyond sessions_fresh7.py's layout), labelled here before the rules were ever
run on them, never edited afterwards. Held out: the benchmark prints its totals only.

Same labelling as sessions.py: ``gold`` items match when every ``must`` string is in one memory
captured from that session; ``noise`` strings must not be stored; ``secrets`` must never be stored
verbatim; ``updates`` [old, new] want the newer item current and the older one superseded;
``distinct`` pairs must both stay current. Six projects on stacks unlike fresh7's (Django / Celery,
Rust / Axum, Terraform / AWS, Flutter / Firebase, Elixir / Phoenix LiveView, embedded C on Zephyr);
a chatty Indian English writer, a terse Polish one, a formal Nigerian ops engineer, a German
speaker writing English with mistakes, a lower-case American with filler, a Spanish firmware
developer with typos; facts the assistant states and the user confirms, decisions given as answers
to the assistant's questions, two reversed within a session, one plan that must not replace the
current value.
"""

# --- parcelpost: Django 5.0 / DRF / Celery / Redis courier dispatch backend -----------------------
PP_REQS = ("Django==5.0.9\ndjangorestframework==3.15.2\ncelery[redis]==5.3.6\ndjango-celery-beat==2.6.0\n"
           "psycopg[binary]==3.2.3\nsentry-sdk==2.14.0\nhttpx==0.27.2\n")
PP_GREP = ("dispatch/views.py:88:        label = LabelClient(settings.PRINTER_GATEWAY).render(shipment)\n"
           "dispatch/views.py:89:        label.print()\n"
           "dispatch/labels.py:12:class LabelClient:\n")
PP_SETTINGS = ("CELERY_BROKER_URL = env(\"CELERY_BROKER_URL\", default=\"redis://cache-1.pp.internal:6379/1\")\n"
               "CELERY_TIMEZONE = \"Europe/London\"\nCELERY_BEAT_SCHEDULE = {\n"
               "    \"nightly_courier_report\": {\n        \"task\": \"reports.tasks.nightly_courier_report\",\n"
               "        \"schedule\": crontab(hour=2, minute=0),\n    },\n}\n")
PP_PYTEST = ("============================= test session starts ==============================\n"
             "platform linux -- Python 3.12.4, pytest-8.3.3, pluggy-1.5.0\ndjango: version: 5.0.9, settings: parcelpost.settings.test\n"
             "collected 48 items\n\ndispatch/tests/test_views.py ..................                        [ 37%]\n"
             "dispatch/tests/test_tasks.py ..............................                [100%]\n\n"
             "============================== 48 passed in 6.12s ==============================\n")
PP_RUFF = "Would reformat: dispatch/tasks.py\nWould reformat: dispatch/views.py\nWould reformat: reports/tasks.py\n3 files would be reformatted, 61 files already formatted\n"
PP_TASKS = ("@shared_task(bind=True, autoretry_for=(httpx.HTTPError,), retry_backoff=True, acks_late=True)\n"
            "def send_status_sms(self, shipment_id, status):\n    shipment = Shipment.objects.get(pk=shipment_id)\n"
            "    sms.send(shipment.phone, render_status(shipment, status))\n")
PP_VT = "parcelpost/settings/base.py:141:CELERY_BROKER_TRANSPORT_OPTIONS = {\"visibility_timeout\": 60}\n"
PP_MIGRATE = ("Migrations for 'notify':\n  notify/migrations/0007_smslog_unique_shipment_status.py\n"
              "    - Create constraint uniq_sms_per_status on model smslog\n"
              "Operations to perform:\n  Apply all migrations: admin, auth, contenttypes, dispatch, notify, reports, sessions\n"
              "Running migrations:\n  Applying notify.0007_smslog_unique_shipment_status... OK\n")
PP_PYTEST51 = PP_PYTEST.replace("48 items", "51 items").replace("48 passed in 6.12s", "51 passed in 6.40s")
PP_BEAT = ("celery beat v5.3.6 (emerald-rush) is starting.\n__    -    ... __   -        _\nLocalTime -> 2026-11-27 10:02:11\n"
           "Configuration ->\n    . broker -> redis://cache-2.pp.internal:6380/1\n    . loader -> celery.loaders.app.AppLoader\n"
           "    . scheduler -> django_celery_beat.schedulers.DatabaseScheduler\n")

# --- mooring: Rust / Axum / SQLx marina berth booking API ------------------------------------------
MOOR_CARGO = ('[package]\nname = "mooring"\nversion = "0.3.0"\nedition = "2021"\nrust-version = "1.78"\n\n[dependencies]\n'
              'axum = "0.7.5"\ntokio = { version = "1.38", features = ["full"] }\n'
              'sqlx = { version = "0.8", features = ["runtime-tokio", "postgres", "chrono", "macros"] }\n'
              'serde = { version = "1", features = ["derive"] }\nthiserror = "1"\nanyhow = "1"\nchrono = "0.4"\n'
              'tracing = "0.1"\n')
MOOR_BUILD = ("   Compiling proc-macro2 v1.0.86\n   Compiling tokio v1.38.1\n   Compiling sqlx-core v0.8.2\n"
              "   Compiling axum v0.7.5\n   Compiling mooring v0.3.0 (/home/tk/src/mooring)\n"
              "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 48.31s\n")
MOOR_MIG = ("CREATE EXTENSION IF NOT EXISTS btree_gist;\n\nALTER TABLE bookings\n  ADD CONSTRAINT bookings_no_overlap\n"
            "  EXCLUDE USING gist (berth_id WITH =, during WITH &&);\n")
MOOR_TEST = ("    Finished `test` profile [unoptimized + debuginfo] target(s) in 12.04s\n"
             "     Running unittests src/lib.rs (target/debug/deps/mooring-5f2c1d0e9a7b3c44)\n\nrunning 23 tests\n"
             + "".join(f"test bookings::tests::case_{i:02d} ... ok\n" for i in range(23))
             + "\ntest result: ok. 23 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.84s\n")
MOOR_TIME = ("pub fn parse_local(s: &str) -> Result<DateTime<Utc>, TimeError> {\n"
             "    let naive = NaiveDateTime::parse_from_str(s, \"%Y-%m-%d %H:%M\")?;\n"
             "    let offset = FixedOffset::east_opt(3600).unwrap();\n"
             "    Ok(offset.from_local_datetime(&naive).unwrap().with_timezone(&Utc))\n}\n")
MOOR_TEST24 = MOOR_TEST.replace("running 23 tests", "running 24 tests").replace("23 passed", "24 passed") \
    .replace("finished in 0.84s", "finished in 0.91s") + "warning: unused import: `chrono::FixedOffset`\n --> src/booking/time.rs:2:5\n"

# --- cloudkeep: Terraform / AWS ------------------------------------------------------------------
CK_VERSION = ("Terraform v1.7.5\non linux_amd64\n+ provider registry.terraform.io/hashicorp/aws v5.40.0\n"
              "+ provider registry.terraform.io/hashicorp/random v3.6.0\n")
CK_INIT = ("Initializing the backend...\nDo you want to copy existing state to the new backend?\n"
           "  Pre-existing state was found while migrating the previous \"local\" backend to the\n"
           "  newly configured \"s3\" backend. No existing state was found in the newly\n"
           "  configured \"s3\" backend. Do you want to copy this state to the new \"s3\"\n  backend? Enter \"yes\" to copy.\n\n"
           "Successfully configured the backend \"s3\"! Terraform will automatically\nuse this backend unless the backend configuration changes.\n"
           "Initializing provider plugins...\n- Reusing previous version of hashicorp/aws from the dependency lock file\n"
           "Terraform has been successfully initialized!\n")
CK_NET = ('module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "~> 5.0"\n\n  name = "ck-prod"\n'
          '  cidr = "10.20.0.0/16"\n  azs  = ["eu-west-2a", "eu-west-2b", "eu-west-2c"]\n\n'
          '  enable_nat_gateway = true\n  single_nat_gateway = false\n}\n')
CK_LOCK = ('# terraform-aws-modules/vpc/aws 5.5.2 resolved in .terraform/modules/modules.json\n'
           '{"Modules":[{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"5.5.2","Dir":".terraform/modules/vpc"}]}\n')
CK_PLAN = ("module.orders_db.aws_db_subnet_group.this[0]: Refreshing state...\n\n"
           "Terraform will perform the following actions:\n\n  # module.orders_db.aws_db_instance.this[0] will be created\n"
           "  + resource \"aws_db_instance\" \"this\" {\n      + allocated_storage       = 50\n"
           "      + backup_retention_period = 7\n      + engine                  = \"postgres\"\n"
           "      + engine_version          = \"15.7\"\n      + instance_class          = \"db.t4g.medium\"\n"
           "      + multi_az                = true\n    }\n\nPlan: 7 to add, 0 to change, 0 to destroy.\n")
CK_TFENV = ("Installing Terraform v1.9.8\nDownloading release tarball from https://releases.hashicorp.com/terraform/1.9.8/terraform_1.9.8_linux_amd64.zip\n"
            "Archive:  /tmp/tfenv_download.XQ2b1c/terraform_1.9.8_linux_amd64.zip\n  inflating: /home/deb/.tfenv/versions/1.9.8/terraform\n"
            "Installation of terraform v1.9.8 successful. To make this your default version, run 'tfenv use 1.9.8'\n")
CK_COST = ('{\n    "ResultsByTime": [\n        {\n            "TimePeriod": {"Start": "2026-10-01", "End": "2026-11-01"},\n'
           '            "Groups": [\n                {"Keys": ["EC2 - Other"], "Metrics": {"UnblendedCost": {"Amount": "412.8812", "Unit": "USD"}}},\n'
           '                {"Keys": ["Amazon Relational Database Service"], "Metrics": {"UnblendedCost": {"Amount": "198.0455", "Unit": "USD"}}}\n'
           '            ]\n        }\n    ]\n}\n')
CK_PLAN2 = ("Terraform will perform the following actions:\n\n  # module.vpc.aws_vpc_endpoint.s3 will be created\n"
            "  # module.vpc.aws_vpc_endpoint.dynamodb will be created\n  # module.vpc.aws_vpc_endpoint_route_table_association.s3[0] will be created\n"
            "  # module.vpc.aws_vpc_endpoint_route_table_association.s3[1] will be created\n\nPlan: 4 to add, 0 to change, 0 to destroy.\n")

# --- birdlog: Flutter / Firebase ------------------------------------------------------------------
BL_PUBSPEC = ("name: birdlog\ndescription: Sightings for birdwatchers.\nversion: 0.4.0+12\n\nenvironment:\n"
              "  sdk: '>=3.5.0 <4.0.0'\n\ndependencies:\n  flutter:\n    sdk: flutter\n  flutter_riverpod: ^2.5.1\n"
              "  cloud_firestore: ^5.4.0\n  firebase_auth: ^5.3.0\n  firebase_core: ^3.4.0\n  geolocator: ^13.0.1\n")
BL_REPO = ("class SightingRepo {\n  SightingRepo(this._db);\n  final FirebaseFirestore _db;\n  final List<Sighting> _pending = [];\n\n"
           "  Future<void> add(Sighting s) async {\n    _pending.add(s);\n    await _db.collection('sightings').add(s.toJson());\n  }\n\n"
           "  Future<void> onReconnect() async {\n    for (final s in _pending) {\n      await _db.collection('sightings').add(s.toJson());\n"
           "    }\n    _pending.clear();\n  }\n}\n")
BL_TEST = ("00:02 +0: loading /Users/lukas/dev/birdlog/test/sighting_repo_test.dart\n00:04 +12: SightingRepo add offline\n"
           "00:06 +31: All tests passed!\n")
BL_BUILD_FAIL = ("Running Gradle task 'bundleRelease'...\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\n"
                 "Execution failed for task ':firebase_auth:compileReleaseKotlin'.\n> Module was compiled with an incompatible version of Kotlin. "
                 "The binary version of its metadata is 1.9.0, expected version is 1.7.1.\n\nBUILD FAILED in 1m 41s\n"
                 "Running Gradle task 'bundleRelease'...                            102.3s\n")
BL_BUILD_OK = ("Running Gradle task 'bundleRelease'...                             88.7s\n"
               "✓ Built build/app/outputs/bundle/release/app-release.aab (24.1MB)\n")

# --- chorus: Elixir / Phoenix LiveView -------------------------------------------------------------
CH_MIX = ('defmodule Chorus.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :chorus, version: "0.6.1", elixir: "~> 1.17",\n'
          '     deps: deps()]\n  end\n\n  defp deps do\n    [{:phoenix, "~> 1.7.14"}, {:phoenix_live_view, "~> 0.20.17"},\n'
          '     {:ecto_sql, "~> 3.11"}, {:postgrex, ">= 0.0.0"}, {:oban, "~> 2.18"},\n'
          '     {:swoosh, "~> 1.16"}, {:credo, "~> 1.7", only: [:dev, :test], runtime: false}]\n  end\nend\n')
CH_TEST = ("Compiling 4 files (.ex)\nGenerated chorus app\n" + "." * 58 + "\nFinished in 1.9 seconds (0.6s async, 1.3s sync)\n"
           "58 tests, 0 failures\n\nRandomized with seed 771204\n")
CH_CREDO = ("Checking 61 source files ...\n\n  Refactoring opportunities\n┃\n┃ [F] → Function is too complex (cyclomatic complexity is 11, max is 9).\n"
            "┃       lib/chorus_web/live/attendance_live.ex:42:7 #(ChorusWeb.AttendanceLive.handle_event)\n\n"
            "  Code Readability\n┃\n┃ [R] ↘ The alias `Chorus.Singers` is not alphabetically ordered among its group.\n"
            "┃       lib/chorus/attendance.ex:4:3 #(Chorus.Attendance)\n\nPlease report incorrect results: https://github.com/rrrene/credo/issues\n\n"
            "Analysis took 0.9 seconds (0.04s to load, 0.8s running 61 checks on 61 files)\n88 mods/funs, found 1 refactoring opportunity, 1 code readability issue.\n")
CH_CONFIG = ('config :chorus, Oban,\n  repo: Chorus.Repo,\n  queues: [mailers: 5],\n  plugins: [\n'
             '    {Oban.Plugins.Cron, crontab: [{"0 9 * * 4", Chorus.Workers.RehearsalReminder}]}\n  ]\n')

# --- hivemon: nRF52840 / Zephyr (nRF Connect SDK) beehive scale firmware ----------------------------
HV_HX = ("int hx711_read(const struct hx711 *dev, int32_t *out)\n{\n\tuint32_t v = 0;\n\n"
         "\twhile (gpio_pin_get_dt(&dev->dout)) {\n\t\tk_sleep(K_MSEC(1));\n\t}\n"
         "\tfor (int i = 0; i < 24; i++) {\n\t\tgpio_pin_set_dt(&dev->sck, 1);\n\t\tk_busy_wait(1);\n"
         "\t\tv = (v << 1) | gpio_pin_get_dt(&dev->dout);\n\t\tgpio_pin_set_dt(&dev->sck, 0);\n\t\tk_busy_wait(1);\n\t}\n"
         "\tgpio_pin_set_dt(&dev->sck, 1);\n\tk_busy_wait(1);\n\tgpio_pin_set_dt(&dev->sck, 0);\n"
         "\t*out = (int32_t)(v << 8) >> 8;\n\treturn 0;\n}\n")
HV_BUILD = ("-- west build: building application\n[1/9] Generating include/generated/version.h\n"
            "[9/9] Linking C executable zephyr/zephyr.elf\nMemory region         Used Size  Region Size  %age Used\n"
            "           FLASH:      198412 B         1 MB     18.92%\n             RAM:       41208 B       256 KB     15.72%\n"
            "        IDT_LIST:          0 GB        32 KB      0.00%\n")
HV_FLASH = ("-- west flash: rebuilding\nninja: no work to do.\n-- west flash: using runner nrfjprog\n"
            "-- runners.nrfjprog: Flashing file: /home/rafa/fw/hivemon/build/zephyr/zephyr.hex\n"
            "[ #################### ]   2.105s | Erase file - Done erasing\n[ #################### ]   1.422s | Program file - Done programming\n"
            "-- runners.nrfjprog: Board with serial number 1050213377 flashed successfully.\n")
HV_LOG = "\n".join(f"[00:{i // 6:02d}:{(i * 10) % 60:02d}.004,211] <inf> scale: weight={41230 + (i * 3) % 7} g temp=18.{i % 9} C"
                   for i in range(30)) + "\n"
HV_PRJ = ("CONFIG_BT=y\nCONFIG_BT_PERIPHERAL=y\nCONFIG_BT_DEVICE_NAME=\"hivemon\"\nCONFIG_I2C=y\nCONFIG_GPIO=y\n"
          "CONFIG_SERIAL=y\nCONFIG_CONSOLE=y\nCONFIG_UART_CONSOLE=y\nCONFIG_LOG=y\nCONFIG_LOG_DEFAULT_LEVEL=3\n")
HV_PPK = "PPK2 capture 600.0 s @ 100 kS/s\nAverage current: 1.91 mA\nMax: 14.2 mA\nCharge: 1146 mC\n"
HV_PPK2 = "PPK2 capture 600.0 s @ 100 kS/s\nAverage current: 41.3 uA\nMax: 13.8 mA\nCharge: 24.8 mC\n"

CAVEAT = ("Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these "
          "messages or otherwise consider them in your response unless the user explicitly asks you to.")


def _s(n: int) -> str:
    return f"f8a1b2c3-00{n:02d}-4abc-9def-0000000000{n:02d}"


FRESH8 = [
    {
        "name": "parcelpost-01-celery", "order": 73, "project": "parcelpost", "cwd": "/home/priya/code/parcelpost",
        "session": _s(73), "start": "2026-11-20T09:15:00", "split": "fresh8", "branch": "feat/async-labels",
        "turns": [
            ("u", "hey! so parcelpost is our courier dispatch backend — django 5.0 + DRF, celery 5.3 with redis as the broker "
                  "(cache-1.pp.internal:6379), postgres 16. I want to get the label printing off the request thread, it's making "
                  "the dispatch screen hang for like 4-5 seconds whenever the printer api is slow"),
            ("a", "", {"thinking": "Find where labels are rendered. If it's inside the view, a Celery task is the obvious move, "
                                   "but check what queues already exist so the labels don't wait behind long jobs.",
                       "tools": [("Read", {"file_path": "/home/priya/code/parcelpost/requirements.txt"}, PP_REQS),
                                 ("Grep", {"pattern": "LabelClient", "path": "."}, PP_GREP),
                                 ("Read", {"file_path": "/home/priya/code/parcelpost/parcelpost/settings/base.py", "offset": 120, "limit": 30}, PP_SETTINGS)]}),
            ("a", "The label is rendered and printed synchronously inside `DispatchView.post` (dispatch/views.py:88), so the request "
                  "waits for the printer gateway. Two ways out:\n\n1. a Celery task that renders and sends the label; the view returns "
                  "202 with a task id and the screen polls for it\n2. keep it synchronous but give the gateway call a 2 s timeout\n\n"
                  "Option 1 removes the hang completely, option 2 only caps it. Which one do you want?"),
            ("u", "1, definitely. but put it on its own queue called `labels` so it doesn't sit behind the nightly report stuff"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/priya/code/parcelpost/dispatch/views.py",
                                           "old_string": "        label = LabelClient(settings.PRINTER_GATEWAY).render(shipment)\n        label.print()\n",
                                           "new_string": "        job = print_label.apply_async((shipment.pk,), queue=\"labels\")\n        return Response({\"task\": job.id}, status=202)\n"},
                                  "The file /home/priya/code/parcelpost/dispatch/views.py has been updated."),
                                 ("Bash", {"command": "pytest -q"}, PP_PYTEST)]}),
            ("a", "Moved rendering into `dispatch.tasks.print_label`, routed to the `labels` queue; the view now answers 202 with "
                  "the task id. All 48 tests pass."),
            ("u", "nice. the worker for that queue needs concurrency 2 max, the printer gateway chokes if you send more than two jobs at a time"),
            ("a", "Added a separate worker line to the Procfile: `celery -A parcelpost worker -Q labels -c 2`."),
            ("u", "oh also fyi the printer gateway lives at 10.40.2.15 port 9100, raw socket. api key for it is pg-LBL-77ac31f9e2 "
                  "but keep that out of git pls, it goes in the env as PRINTER_KEY"),
            ("a", "Understood — `LabelClient` now reads `PRINTER_KEY` from the environment and `.env.example` has an empty placeholder."),
            ("a", "While I was in the settings: the `nightly_courier_report` beat entry runs at 02:00, and `CELERY_TIMEZONE` is "
                  "Europe/London, so that is 02:00 London time. Is that what you expect?"),
            ("u", "yep thats right, 2am london time"),
            ("u", "and we always use `ruff format` not black, the CI checks it"),
            ("a", "", {"tools": [("Bash", {"command": "ruff format --check ."}, PP_RUFF), ("Bash", {"command": "ruff format ."}, "3 files reformatted, 61 files left unchanged\n")]}),
            ("a", "Formatted the three files ruff flagged."),
            ("u", "great thanks so much!! that's all for now, chai time ☕"),
        ],
        "gold": [
            {"id": "django", "kind": "fact", "must": ["django 5.0"]},
            {"id": "celery", "kind": "fact", "must": ["celery 5.3"]},
            {"id": "broker", "kind": "fact", "must": ["cache-1.pp.internal"]},
            {"id": "labels_queue", "kind": "decision", "must": ["labels", "queue"]},
            {"id": "concurrency", "kind": "fact", "must": ["concurrency 2"]},
            {"id": "printer_host", "kind": "fact", "must": ["10.40.2.15"]},
            {"id": "printer_env", "kind": "fact", "must": ["printer_key"]},
            {"id": "report", "kind": "fact", "must": ["report", "02:00"]},
            {"id": "ruff", "kind": "preference", "must": ["ruff format"]},
        ],
        "noise": ["chai time", "48 passed", "would be reformatted", "Formatted the three files", "files left unchanged"],
        "secrets": ["pg-LBL-77ac31f9e2"],
    },
    {
        "name": "mooring-01-api", "order": 74, "project": "mooring", "cwd": "/home/tk/src/mooring",
        "session": _s(74), "start": "2026-11-21T19:40:00", "split": "fresh8",
        "turns": [
            ("u", "rust api for marina berth booking. axum 0.7, sqlx + postgres, tokio. msrv 1.78. add endpoint POST /bookings"),
            ("a", "", {"thinking": "Look at Cargo.toml and the existing schema. The interesting part of a booking endpoint is "
                                   "preventing two bookings of the same berth for overlapping dates.",
                       "tools": [("Read", {"file_path": "/home/tk/src/mooring/Cargo.toml"}, MOOR_CARGO),
                                 ("Bash", {"command": "cargo build"}, MOOR_BUILD)]}),
            ("a", "Builds fine. Before I write it: overlapping bookings can be rejected either in the handler (SELECT for an overlap, "
                  "then INSERT, in one transaction) or by an exclusion constraint in Postgres "
                  "(`EXCLUDE USING gist (berth_id WITH =, during WITH &&)`). The constraint can't race; the handler check can "
                  "unless the transaction is SERIALIZABLE. Which do you prefer?"),
            ("u", "constraint. app check is racy"),
            ("a", "", {"tools": [("Write", {"file_path": "/home/tk/src/mooring/migrations/0004_booking_overlap.sql", "content": MOOR_MIG},
                                  "File created successfully at: /home/tk/src/mooring/migrations/0004_booking_overlap.sql"),
                                 ("Bash", {"command": "cargo test"}, MOOR_TEST)]}),
            ("a", "Added migration `0004_booking_overlap.sql` (exclusion constraint, needs the `btree_gist` extension) and "
                  "`POST /bookings`, which maps the constraint violation to 409 Conflict. `cargo test` passes, 23 tests."),
            ("u", "errors: thiserror in lib crates, anyhow only in the main bin. and no unwrap() outside tests"),
            ("a", "Changed `BookingError` to a `thiserror` enum and replaced the two `unwrap()` calls in the handler with `?`."),
            ("u", "db local is postgres://mooring@localhost:5433/mooring. 5433 because 5432 is my other pg"),
            ("a", "Put it into `.env` as `DATABASE_URL` and regenerated the offline query data with `cargo sqlx prepare`."),
            ("u", "remember: always cargo sqlx prepare before commit. CI builds with SQLX_OFFLINE=true"),
            ("u", "server listens 8088"),
            ("a", "`main.rs` already binds `0.0.0.0:8088`, so nothing to change there."),
            ("u", "ok"),
        ],
        "gold": [
            {"id": "axum", "kind": "fact", "must": ["axum 0.7"]},
            {"id": "msrv", "kind": "fact", "must": ["msrv", "1.78"]},
            {"id": "overlap", "kind": "decision", "must": ["exclusion constraint"]},
            {"id": "errors", "kind": "preference", "must": ["thiserror", "anyhow"]},
            {"id": "unwrap", "kind": "preference", "must": ["unwrap"]},
            {"id": "dbport", "kind": "fact", "must": ["5433"]},
            {"id": "sqlx_prepare", "kind": "preference", "must": ["cargo sqlx prepare", "commit"]},
            {"id": "port", "kind": "fact", "must": ["8088"]},
        ],
        "noise": ["Compiling tokio", "test result: ok", "Finished `dev` profile", "case_07"],
        "secrets": [],
    },
    {
        "name": "cloudkeep-01-state", "order": 75, "project": "cloudkeep", "cwd": "/home/deb/infra/cloudkeep", "v2": True,
        "session": _s(75), "start": "2026-11-22T13:05:00", "split": "fresh8",
        "summary": "Terraform remote state on S3",
        "turns": [
            ("u", "Good afternoon. We are moving our terraform from local state to remote state. Terraform 1.7.5, AWS provider 5.40. "
                  "Region is eu-west-2 for everything."),
            ("a", "", {"thinking": "Confirm versions, then look at the current backend block.",
                       "tools": [("Bash", {"command": "terraform version"}, CK_VERSION),
                                 ("Bash", {"command": "cat backend.tf"}, "cat: backend.tf: No such file or directory\n")]}),
            ("a", "There's no backend block yet, so the state is local. The usual remote setup is an S3 bucket with versioning "
                  "plus a DynamoDB table for state locking. Do you want one bucket per environment, or one bucket with a key prefix "
                  "per environment?"),
            ("u", "One bucket, prefix per env. Bucket name is ck-tfstate-prod-euw2, lock table tf-locks."),
            ("a", "", {"tools": [("Write", {"file_path": "/home/deb/infra/cloudkeep/backend.tf",
                                            "content": "terraform {\n  backend \"s3\" {\n    bucket         = \"ck-tfstate-prod-euw2\"\n"
                                                       "    key            = \"prod/terraform.tfstate\"\n    region         = \"eu-west-2\"\n"
                                                       "    dynamodb_table = \"tf-locks\"\n    encrypt        = true\n  }\n}\n"},
                                  "File created successfully at: /home/deb/infra/cloudkeep/backend.tf"),
                                 ("Bash", {"command": "terraform init -migrate-state -force-copy"}, CK_INIT)]}),
            ("a", "State migrated to `s3://ck-tfstate-prod-euw2/prod/terraform.tfstate`, locked through `tf-locks`."),
            ("u", "The access key for the CI user is AKIAQX7EXAMPLE4ZT2LM with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9Kq1 — "
                  "I will rotate it tomorrow, use it if the init complains."),
            ("a", "It didn't need it: the init ran with your existing `ck-admin` AWS profile, so I haven't used or stored that key."),
            ("u", "Thank you. Please note that we never run apply from laptops. Plan locally is fine, apply happens only through "
                  "Atlantis in the PR comment."),
            ("u", "Atlantis is at atlantis.ck.internal:4141 if you need to look at a run."),
            ("u", "Also module versions must be pinned to an exact version, no ~> ranges. We got burned by the vpc module before."),
            ("a", "", {"tools": [("Read", {"file_path": "/home/deb/infra/cloudkeep/network/main.tf"}, CK_NET),
                                 ("Bash", {"command": "jq . .terraform/modules/modules.json | head"}, CK_LOCK)]}),
            ("a", "`network/main.tf` has `terraform-aws-modules/vpc/aws` at `~> 5.0`; the version actually resolved is 5.5.2. "
                  "Pin it to exactly 5.5.2?"),
            ("u", "Yes pin to that."),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/deb/infra/cloudkeep/network/main.tf", "old_string": "version = \"~> 5.0\"",
                                           "new_string": "version = \"5.5.2\""}, "The file /home/deb/infra/cloudkeep/network/main.tf has been updated.")]}),
            ("a", "Pinned the vpc module to 5.5.2. No other module uses a range."),
            ("u", "Good. That is all for today, thank you."),
        ],
        "gold": [
            {"id": "tf_version", "kind": "fact", "must": ["terraform 1.7.5"]},
            {"id": "provider", "kind": "fact", "must": ["provider 5.40"]},
            {"id": "region", "kind": "fact", "must": ["eu-west-2"]},
            {"id": "prefix", "kind": "decision", "must": ["prefix per env"]},
            {"id": "bucket", "kind": "fact", "must": ["ck-tfstate-prod-euw2"]},
            {"id": "lock", "kind": "fact", "must": ["tf-locks"]},
            {"id": "apply", "kind": "preference", "must": ["apply", "atlantis"]},
            {"id": "atlantis", "kind": "fact", "must": ["atlantis.ck.internal"]},
            {"id": "pinned", "kind": "preference", "must": ["exact version"]},
            {"id": "vpc", "kind": "decision", "must": ["vpc", "5.5.2"]},
        ],
        "noise": ["Good afternoon", "Initializing the backend", "Successfully configured the backend", "on linux_amd64",
                  "That is all for today"],
        "secrets": ["AKIAQX7EXAMPLE4ZT2LM", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9Kq1"],
    },
    {
        "name": "parcelpost-02-duplicates", "order": 76, "project": "parcelpost", "cwd": "/home/priya/code/parcelpost",
        "session": _s(76), "start": "2026-11-23T08:50:00", "split": "fresh8", "branch": "fix/double-sms",
        "turns": [
            ("u", "morning. weird one: some customers are getting the 'out for delivery' sms twice, a few even 3 times. "
                  "only since last week's deploy I think"),
            ("a", "Let me look at the SMS task and what changed in last week's deploy."),
            ("a", "", {"thinking": "Repeated delivery of a Celery task on Redis: acks_late plus a task that runs longer than the "
                                   "broker's visibility_timeout gets redelivered to another worker. Check both.",
                       "tools": [("Bash", {"command": "git log --oneline -5 -- notify/"},
                                  "a91c3e2 notify: acks_late on send_status_sms so a worker crash doesn't drop it\n"
                                  "77d0b1f notify: render status via template\n"),
                                 ("Read", {"file_path": "/home/priya/code/parcelpost/notify/tasks.py"}, PP_TASKS),
                                 ("Grep", {"pattern": "visibility_timeout", "path": "parcelpost/settings"}, PP_VT)]}),
            ("a", "Found it. Last week `send_status_sms` got `acks_late=True` (a91c3e2). The SMS provider call can take over a "
                  "minute when they throttle us, and the broker's `visibility_timeout` is 60 seconds, so Redis hands the "
                  "still-running task to a second worker — hence the repeated SMS. I'd do two things: raise `visibility_timeout` to "
                  "3600, and make the task idempotent with a unique (shipment, status) constraint on `SmsLog`, skipping when the row "
                  "already exists. Want both?"),
            ("u", "do both"),
            ("a", "", {"tools": [("Bash", {"command": "python manage.py makemigrations notify && python manage.py migrate"}, PP_MIGRATE),
                                 ("Bash", {"command": "pytest -q"}, PP_PYTEST51)]}),
            ("a", "Done: `visibility_timeout` is 3600, `SmsLog` has a unique constraint on (shipment_id, status) and the task "
                  "returns early when the row exists. 51 tests pass."),
            ("u", "btw we moved redis, the broker is now redis://cache-2.pp.internal:6380/1 — old cache-1 gets retired friday"),
            ("a", "Updated `CELERY_BROKER_URL`'s default and the ansible group vars to cache-2.pp.internal:6380."),
            ("u", "also the labels worker, bump it to concurrency 3 — they upgraded the gateway firmware and it handles 3 now"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/priya/code/parcelpost/Procfile", "old_string": "-Q labels -c 2",
                                           "new_string": "-Q labels -c 3"}, "The file /home/priya/code/parcelpost/Procfile has been updated.")]}),
            ("u", "ok and one more thing to remember: never run manage.py migrate against prod from a laptop, migrations go "
                  "through the release pipeline only. someone did it last month and it was 🔥🔥"),
            ("a", "Noted, I won't run migrations against prod."),
            ("u", "ty ty"),
        ],
        "gold": [
            {"id": "sms_dupes", "kind": "bugfix", "must": ["sms", "visibility_timeout"]},
            {"id": "broker", "kind": "fact", "must": ["cache-2.pp.internal"]},
            {"id": "concurrency", "kind": "fact", "must": ["concurrency 3"]},
            {"id": "migrate", "kind": "preference", "must": ["migrate", "pipeline"]},
        ],
        "noise": ["morning. weird", "51 passed", "ty ty", "Noted, I won't", "Let me look at the SMS task", "Applying notify.0007"],
        "secrets": [],
        "updates": [["parcelpost-01-celery:broker", "parcelpost-02-duplicates:broker"],
                    ["parcelpost-01-celery:concurrency", "parcelpost-02-duplicates:concurrency"]],
    },
    {
        "name": "birdlog-01-sync", "order": 77, "project": "birdlog", "cwd": "/Users/lukas/dev/birdlog",
        "session": _s(77), "start": "2026-11-23T20:10:00", "split": "fresh8",
        "turns": [
            ("u", "Hallo! I make a small app for birdwatchers, Flutter 3.24 with Firebase (Firestore and Auth). State managment "
                  "is Riverpod, please not bloc, I tried it and it is too much boilerplate for me."),
            ("a", "", {"tools": [("Read", {"file_path": "/Users/lukas/dev/birdlog/pubspec.yaml"}, BL_PUBSPEC)]}),
            ("a", "pubspec has `flutter_riverpod ^2.5.1`, `cloud_firestore ^5.4.0` and `firebase_auth ^5.3.0`, Dart SDK `>=3.5.0 <4.0.0`. "
                  "What would you like to work on?"),
            ("u", "The problem: when the user is offline in the forest and makes a sighting, then comes back online, sometimes "
                  "the sighting is two times in the list."),
            ("a", "", {"thinking": "Firestore already persists offline writes and syncs them. If the app also keeps its own queue "
                                   "and replays it with add(), each replay makes a new document id.",
                       "tools": [("Grep", {"pattern": "_pending", "path": "lib"}, "lib/data/sighting_repo.dart\n"),
                                 ("Read", {"file_path": "/Users/lukas/dev/birdlog/lib/data/sighting_repo.dart"}, BL_REPO)]}),
            ("a", "The cause: `SightingRepo.add` writes to Firestore — which already queues writes made offline and sends them "
                  "when the connection is back — and also puts the sighting into its own `_pending` list, which `onReconnect` "
                  "replays with `collection.add()`. That creates a second document with a new id. Fix: remove the `_pending` "
                  "queue and create the id on the client (`doc()` then `set()`), so even a replay overwrites instead of duplicating."),
            ("u", "Ah ok, I did not know firestore does this alone. Yes make it so."),
            ("a", "", {"tools": [("Edit", {"file_path": "/Users/lukas/dev/birdlog/lib/data/sighting_repo.dart",
                                           "old_string": "    _pending.add(s);\n    await _db.collection('sightings').add(s.toJson());\n",
                                           "new_string": "    await _db.collection('sightings').doc(s.id).set(s.toJson());\n"},
                                  "The file /Users/lukas/dev/birdlog/lib/data/sighting_repo.dart has been updated."),
                                 ("Bash", {"command": "flutter test"}, BL_TEST)]}),
            ("a", "Done, and `flutter test` is green (31 tests)."),
            ("u", "Danke! Also for remember: the firestore collection names are always plural and snake_case, like `sightings`, "
                  "`bird_species`."),
            ("u", "Our firebase project is birdlog-prod-7c2e, for testing we use the emulator on port 8085."),
            ("a", "Should I set up the Android build too? I need the minimum SDK for that."),
            ("u", "minSdk is 24."),
            ("u", "and for iOS the deployment target is 13.0"),
            ("a", "Set `minSdkVersion 24` in `android/app/build.gradle` and `IPHONEOS_DEPLOYMENT_TARGET = 13.0` in the Runner project."),
            ("u", "Thank you, bis bald"),
        ],
        "gold": [
            {"id": "flutter", "kind": "fact", "must": ["flutter 3.24"]},
            {"id": "riverpod", "kind": "preference", "must": ["riverpod"]},
            {"id": "dupes", "kind": "bugfix", "must": ["_pending", "set()"]},
            {"id": "collections", "kind": "preference", "must": ["plural", "snake_case"]},
            {"id": "project", "kind": "fact", "must": ["birdlog-prod-7c2e"]},
            {"id": "emulator", "kind": "fact", "must": ["emulator", "8085"]},
            {"id": "android", "kind": "fact", "must": ["minsdk", "24"]},
            {"id": "ios", "kind": "fact", "must": ["deployment target", "13.0"]},
        ],
        "noise": ["Hallo!", "All tests passed!", "bis bald", "00:04 +12"],
        "secrets": [],
        "distinct": [["birdlog-01-sync:android", "birdlog-01-sync:ios"]],
    },
    {
        "name": "cloudkeep-02-rds", "order": 78, "project": "cloudkeep", "cwd": "/home/deb/infra/cloudkeep", "v2": True,
        "session": _s(78), "start": "2026-11-24T10:00:00", "split": "fresh8",
        "summary": "Orders RDS instance",
        "turns": [
            ("u", "Hello. Today is RDS. The app team needs Postgres 15 for the orders service, instance class db.t4g.medium."),
            ("u", "Multi-AZ in prod only."),
            ("a", "", {"thinking": "There's a modules/rds wrapper; read it and run a plan for prod.",
                       "tools": [("Bash", {"command": "ls modules"}, "rds\nvpc-endpoints\n"),
                                 ("Bash", {"command": "terraform plan -target=module.orders_db"}, CK_PLAN)]}),
            ("a", "Plan: 7 to add. One question — `backup_retention_period` is 7 days by default in the module. Keep 7 for prod "
                  "or go longer?"),
            ("u", "14 days for prod."),
            ("a", "And staging? It currently inherits the same 7."),
            ("u", "staging can be 3 days, it is throwaway data"),
            ("u", "Oh and we upgraded Terraform to 1.9.8 on the Atlantis image yesterday, so local also please."),
            ("a", "", {"tools": [("Bash", {"command": "tfenv install 1.9.8 && tfenv use 1.9.8 && echo 1.9.8 > .terraform-version"}, CK_TFENV)]}),
            ("a", "Local Terraform is 1.9.8 now and `.terraform-version` says so."),
            ("u", "The master password for the RDS, for now the bootstrap one is Kestrel-Ramp-4471, we change it on first login."),
            ("a", "Rather than put a password in the code at all, I can set `manage_master_user_password = true`: RDS then "
                  "generates it and keeps it in Secrets Manager, rotated for you. Do that instead?"),
            ("u", "Good. Yes do that instead."),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/deb/infra/cloudkeep/envs/prod/orders_db.tf",
                                           "old_string": "  password = var.bootstrap_password\n",
                                           "new_string": "  manage_master_user_password = true\n"},
                                  "The file /home/deb/infra/cloudkeep/envs/prod/orders_db.tf has been updated.")]}),
            ("a", "Done; the plan is on the branch `rds-orders` for Atlantis."),
            ("u", "Thanks."),
        ],
        "gold": [
            {"id": "pg", "kind": "fact", "must": ["postgres 15"]},
            {"id": "rds_class", "kind": "fact", "must": ["db.t4g.medium"]},
            {"id": "multiaz", "kind": "decision", "must": ["multi-az", "prod"]},
            {"id": "retention_prod", "kind": "decision", "must": ["14 days"]},
            {"id": "retention_stg", "kind": "decision", "must": ["3 days"]},
            {"id": "tf_version", "kind": "fact", "must": ["terraform", "1.9.8"]},
            {"id": "managed_pw", "kind": "decision", "must": ["manage_master_user_password"]},
        ],
        "noise": ["Hello. Today is RDS", "Plan: 7 to add", "Installing Terraform", "inflating:", "Refreshing state"],
        "secrets": ["Kestrel-Ramp-4471"],
        "updates": [["cloudkeep-01-state:tf_version", "cloudkeep-02-rds:tf_version"]],
        "distinct": [["cloudkeep-02-rds:retention_prod", "cloudkeep-02-rds:retention_stg"]],
    },
    {
        "name": "mooring-02-timezone", "order": 79, "project": "mooring", "cwd": "/home/tk/src/mooring",
        "session": _s(79), "start": "2026-11-25T21:05:00", "split": "fresh8", "branch": "fix/summer-offset",
        "turns": [
            ("u", "bug. bookings for next summer show 1h wrong in the app. winter ones fine"),
            ("a", "", {"thinking": "Summer only, one hour: a fixed offset where a time zone is needed. Find how office times are parsed.",
                       "tools": [("Grep", {"pattern": "FixedOffset", "path": "src"}, "src/booking/time.rs:2:use chrono::FixedOffset;\nsrc/booking/time.rs:9:    let offset = FixedOffset::east_opt(3600).unwrap();\n"),
                                 ("Read", {"file_path": "/home/tk/src/mooring/src/booking/time.rs"}, MOOR_TIME)]}),
            ("a", "Cause: `parse_local` converts the harbour office's local times with a fixed +01:00 offset, so every time in "
                  "summer (CEST, +02:00) lands one hour off. Fix: use the `chrono-tz` crate with `Europe/Warsaw` and convert with "
                  "`from_local_datetime`, storing UTC in the `timestamptz` column as now. OK to add chrono-tz as a dependency?"),
            ("u", "ok add it"),
            ("a", "", {"tools": [("Bash", {"command": "cargo add chrono-tz@0.10 && cargo test"}, "    Updating crates.io index\n      Adding chrono-tz v0.10.0 to dependencies\n" + MOOR_TEST24)]}),
            ("a", "Fixed. Added a test: 2027-07-01 10:00 local becomes 08:00 UTC. 24 tests pass; I'll drop the leftover "
                  "`FixedOffset` import too."),
            ("u", "msrv goes to 1.80 now, chrono-tz 0.10 needs it. update rust-version"),
            ("a", "`rust-version = \"1.80\"` in Cargo.toml, and the CI toolchain matrix now tests 1.80 and stable."),
            ("u", "also port change. 8088 is taken by the harbour office proxy, api now on 8090. metrics stay on 9464"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/tk/src/mooring/src/main.rs", "old_string": "0.0.0.0:8088",
                                           "new_string": "0.0.0.0:8090"}, "The file /home/tk/src/mooring/src/main.rs has been updated.")]}),
            ("a", "API binds 8090 now; the Prometheus exporter is unchanged on 9464."),
            ("u", "deploy is `just deploy-pi`, goes to the raspberry in the office (berth-pi.local)"),
            ("u", "dzięki"),
        ],
        "gold": [
            {"id": "tz_bug", "kind": "bugfix", "must": ["+01:00", "chrono-tz"]},
            {"id": "msrv", "kind": "fact", "must": ["msrv", "1.80"]},
            {"id": "port", "kind": "fact", "must": ["8090"]},
            {"id": "metrics", "kind": "fact", "must": ["9464"]},
            {"id": "deploy", "kind": "fact", "must": ["just deploy-pi"]},
        ],
        "noise": ["24 passed", "unused import", "dzięki", "Updating crates.io index"],
        "secrets": [],
        "updates": [["mooring-01-api:msrv", "mooring-02-timezone:msrv"], ["mooring-01-api:port", "mooring-02-timezone:port"]],
        "distinct": [["mooring-02-timezone:port", "mooring-02-timezone:metrics"]],
    },
    {
        "name": "chorus-01-liveview", "order": 80, "project": "chorus", "cwd": "/home/sam/code/chorus",
        "session": _s(80), "start": "2026-11-26T17:30:00", "split": "fresh8",
        "turns": [
            ("u", "ok so chorus is the rehearsal scheduler for my community choir lol. elixir 1.17, phoenix 1.7 with liveview, "
                  "postgres through ecto. it's deployed on fly.io, the app name is chorus-sings. i want to add an attendance page "
                  "where section leaders tick who showed up"),
            ("a", "", {"thinking": "Read mix.exs and run the tests to know the baseline before adding a context and a LiveView.",
                       "tools": [("Read", {"file_path": "/home/sam/code/chorus/mix.exs"}, CH_MIX),
                                 ("Bash", {"command": "mix test"}, CH_TEST.replace("58 tests", "52 tests").replace("." * 58, "." * 52))]}),
            ("a", "Plan: an `Attendance` context with an `attendances` table (rehearsal_id, singer_id, present) and a LiveView at "
                  "`/rehearsals/:id/attendance`. Should a section leader see only their own section (sopranos, altos, tenors, "
                  "basses), or everyone?"),
            ("u", "only their own section. admins see all of them"),
            ("a", "", {"tools": [("Bash", {"command": "mix ecto.gen.migration create_attendances && mix ecto.migrate && mix test"}, CH_TEST)]}),
            ("a", "Attendance page is in, scoped by the leader's section (admins see every section); 58 tests, 0 failures."),
            ("u", "sweet!! oh btw we send the rehearsal reminder emails with oban, cron at 9am every thursday. the mailer is swoosh "
                  "with postmark"),
            ("u", "and ugh i keep forgetting to say this, please always run mix format and mix credo --strict before you tell me "
                  "something is done. credo strict is non-negotiable haha"),
            ("a", "", {"tools": [("Bash", {"command": "mix format && mix credo --strict"}, CH_CREDO)]}),
            ("a", "credo found 2 issues (one function too complex, one alias out of order); fixed both and it's clean now."),
            ("u", "the postmark server token is 8f1c0d5e-77aa-4b2e-9c3d-1e2f3a4b5c6d btw if you need to test sending. it's "
                  "already in fly secrets"),
            ("a", "Thanks, but I'll use Swoosh's local adapter in dev so the real token isn't needed anywhere."),
            ("u", "perfect, ok gotta run, choir practice lol 🎶"),
        ],
        "gold": [
            {"id": "elixir", "kind": "fact", "must": ["elixir 1.17"]},
            {"id": "phoenix", "kind": "fact", "must": ["phoenix 1.7"]},
            {"id": "fly", "kind": "fact", "must": ["chorus-sings"]},
            {"id": "own_section", "kind": "decision", "must": ["own section"]},
            {"id": "reminder", "kind": "fact", "must": ["reminder", "thursday"]},
            {"id": "postmark", "kind": "fact", "must": ["swoosh", "postmark"]},
            {"id": "credo", "kind": "preference", "must": ["credo --strict"]},
        ],
        "noise": ["gotta run", "58 tests, 0 failures", "Finished in 1.9 seconds", "credo found 2 issues", "Randomized with seed"],
        "secrets": ["8f1c0d5e-77aa-4b2e-9c3d-1e2f3a4b5c6d"],
    },
    {
        "name": "parcelpost-03-reports", "order": 81, "project": "parcelpost", "cwd": "/home/priya/code/parcelpost",
        "session": _s(81), "start": "2026-11-27T10:00:00", "split": "fresh8", "v2": True,
        "summary": "Nightly courier report timing and delivery",
        "turns": [
            ("u", "hi hi, the nightly courier report runs at 02:00 right now — can we move it to 04:30? the depot managers say the "
                  "2am numbers miss all the late vans"),
            ("a", "", {"tools": [("Bash", {"command": "celery -A parcelpost beat --dry-run 2>&1 | head -8"}, PP_BEAT)]}),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/priya/code/parcelpost/parcelpost/settings/base.py",
                                           "old_string": "crontab(hour=2, minute=0)", "new_string": "crontab(hour=4, minute=30)"},
                                  "The file /home/priya/code/parcelpost/parcelpost/settings/base.py has been updated.")]}),
            ("a", "Moved `nightly_courier_report` to 04:30 Europe/London."),
            ("u", "and can it email the report to ops@parcelpost.co.uk when it's done? right now ppl go and download it from the admin"),
            ("a", "Sure. Attach the CSV to the email, or send a link to the report in the admin?"),
            ("u", "csv attachment, they like opening it in excel straight away"),
            ("a", "", {"tools": [("Write", {"file_path": "/home/priya/code/parcelpost/reports/mail.py",
                                            "content": "def send_report(report):\n    msg = EmailMessage(subject=report.title, to=[settings.OPS_EMAIL])\n"
                                                       "    msg.attach(report.filename, report.csv_bytes(), \"text/csv\")\n    msg.send()\n"},
                                  "File created successfully at: /home/priya/code/parcelpost/reports/mail.py")]}),
            ("u", "hmm actually no, scrap the attachment — our mail server bounces anything over 5MB and the december reports are "
                  "massive. just email a link to the admin page instead"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/priya/code/parcelpost/reports/mail.py",
                                           "old_string": "    msg.attach(report.filename, report.csv_bytes(), \"text/csv\")\n",
                                           "new_string": "    msg.body = render_to_string(\"reports/link_email.txt\", {\"url\": report.admin_url()})\n"},
                                  "The file /home/priya/code/parcelpost/reports/mail.py has been updated.")]}),
            ("a", "Switched to a plain email with the link to the report's admin page; no attachment."),
            ("u", "you can test it on staging, that's stg.parcelpost.co.uk. prod is app.parcelpost.co.uk, don't touch prod obviously"),
            ("u", "the smtp password for staging is Tr4mline-Sorting-88 if the test mail doesn't go out, it's in 1password too"),
            ("a", "The staging settings already read `EMAIL_HOST_PASSWORD` from the environment, so I left it there and triggered "
                  "the task on stg.parcelpost.co.uk: the mail arrived with the link."),
            ("u", "brill, cheers"),
        ],
        "gold": [
            {"id": "report", "kind": "decision", "must": ["report", "04:30"]},
            {"id": "report_link", "kind": "decision", "must": ["link", "admin page"]},
            {"id": "ops_email", "kind": "fact", "must": ["ops@parcelpost.co.uk"]},
            {"id": "staging", "kind": "fact", "must": ["stg.parcelpost.co.uk"]},
            {"id": "prod", "kind": "fact", "must": ["app.parcelpost.co.uk"]},
        ],
        "noise": ["hi hi", "brill, cheers", "celery beat v5.3.6", "DatabaseScheduler"],
        "secrets": ["Tr4mline-Sorting-88"],
        "updates": [["parcelpost-01-celery:report", "parcelpost-03-reports:report"]],
        "distinct": [["parcelpost-03-reports:staging", "parcelpost-03-reports:prod"]],
    },
    {
        "name": "birdlog-02-release", "order": 82, "project": "birdlog", "cwd": "/Users/lukas/dev/birdlog",
        "session": _s(82), "start": "2026-11-28T19:45:00", "split": "fresh8", "branch": "release/0.5",
        "turns": [
            ("u", "Hi again. I want to make a first release to the play store. Befor that, I updated Flutter to 3.27 yesterday, "
                  "please check if all still builds."),
            ("a", "", {"tools": [("Bash", {"command": "flutter build appbundle --release"}, BL_BUILD_FAIL)]}),
            ("a", "The release build fails: `firebase_auth` is compiled with Kotlin 1.9, but `android/settings.gradle` pins the "
                  "`org.jetbrains.kotlin.android` plugin to 1.7.10. Bump the Kotlin plugin to 1.9.24?"),
            ("u", "yes"),
            ("a", "", {"tools": [("Edit", {"file_path": "/Users/lukas/dev/birdlog/android/settings.gradle",
                                           "old_string": "id \"org.jetbrains.kotlin.android\" version \"1.7.10\"",
                                           "new_string": "id \"org.jetbrains.kotlin.android\" version \"1.9.24\""},
                                  "The file /Users/lukas/dev/birdlog/android/settings.gradle has been updated."),
                                 ("Bash", {"command": "flutter build appbundle --release"}, BL_BUILD_OK)]}),
            ("a", "With the Kotlin plugin at 1.9.24 it builds: `app-release.aab`, 24.1 MB."),
            ("u", "Super. The keystore password is Amsel#Winter2026 , it is also in my keychain. The key alias is upload."),
            ("a", "I referenced the keystore through `android/key.properties` (git-ignored) and didn't write the password anywhere."),
            ("u", "the emulator port I changed to 8095 because 8085 was used by some other thing on my mac"),
            ("u", "And iOS minimum I go up to 14, one plugin wants it."),
            ("a", "Updated `firebase.json` (Firestore emulator 8095) and the iOS deployment target to 14.0 in the Podfile and Runner."),
            ("a", "For the Play Console: do you want to publish straight to the production track, or internal testing first?"),
            ("u", "production directly, it is only for my bird club anyway"),
            ("u", "hmm no wait, I read now that new personal developer accounts need a closed test with 12 testers for 14 days "
                  "before production. So closed testing track, not production."),
            ("a", "OK — the Fastlane lane uploads to the closed testing track (`track: 'alpha'`)."),
            ("u", "good. gute nacht"),
        ],
        "gold": [
            {"id": "flutter", "kind": "fact", "must": ["flutter", "3.27"]},
            {"id": "kotlin", "kind": "bugfix", "must": ["kotlin", "1.9.24"]},
            {"id": "alias", "kind": "fact", "must": ["key alias"]},
            {"id": "emulator", "kind": "fact", "must": ["emulator", "8095"]},
            {"id": "ios", "kind": "fact", "must": ["ios", "14"]},
            {"id": "track", "kind": "decision", "must": ["closed test"]},
        ],
        "noise": ["Hi again", "Running Gradle task", "BUILD FAILED", "gute nacht", "Built build/app/outputs"],
        "secrets": ["Amsel#Winter2026"],
        "updates": [["birdlog-01-sync:flutter", "birdlog-02-release:flutter"],
                    ["birdlog-01-sync:emulator", "birdlog-02-release:emulator"],
                    ["birdlog-01-sync:ios", "birdlog-02-release:ios"]],
        "distinct": [["birdlog-01-sync:android", "birdlog-02-release:ios"]],
    },
    {
        "name": "cloudkeep-03-cost", "order": 83, "project": "cloudkeep", "cwd": "/home/deb/infra/cloudkeep", "v2": True,
        "session": _s(83), "start": "2026-11-29T09:20:00", "split": "fresh8",
        "summary": "NAT gateway cost",
        "turns": [
            ("u", "Morning. Finance complained about the NAT gateway cost, about $380 a month. Can we reduce it?"),
            ("a", "", {"thinking": "Check the cost breakdown and how the VPC is set up. Three NAT gateways at ~$32 each plus data "
                                   "processing; the backups to S3 probably go through NAT.",
                       "tools": [("Bash", {"command": "aws ce get-cost-and-usage --time-period Start=2026-10-01,End=2026-11-01 "
                                                      "--granularity MONTHLY --metrics UnblendedCost --group-by Type=DIMENSION,Key=SERVICE"}, CK_COST),
                                 ("Read", {"file_path": "/home/deb/infra/cloudkeep/network/main.tf"}, CK_NET.replace("~> 5.0", "5.5.2"))]}),
            ("a", "There are three NAT gateways (one per AZ), and most of the 'EC2 - Other' line is NAT data processing — the "
                  "nightly backups to S3 go out through NAT. Options:\n\n- gateway VPC endpoints for S3 and DynamoDB (free, and that "
                  "traffic stops touching NAT)\n- a single NAT gateway in staging\n- NAT instances (fck-nat) instead of managed NAT\n\n"
                  "The S3 endpoint alone should remove most of the cost."),
            ("u", "Do the S3 and DynamoDB gateway endpoints everywhere, and single NAT in staging. Keep 3 in prod."),
            ("a", "", {"tools": [("Bash", {"command": "terraform plan"}, CK_PLAN2)]}),
            ("u", "Hmm, wait. The staging cluster runs the load tests through NAT, one NAT will bottleneck them. Leave staging NAT "
                  "as it is, only the endpoints."),
            ("a", "Understood: gateway endpoints for S3 and DynamoDB in every VPC, NAT gateways unchanged. The plan above is "
                  "exactly that (4 to add); the PR is up for Atlantis."),
            ("u", "Also Atlantis moved to atlantis.ops.ck.internal, same port."),
            ("u", "Please remember: every resource gets a cost-center tag, through default_tags in the provider block. That is how "
                  "we do it."),
            ("a", "", {"tools": [("Grep", {"pattern": "default_tags", "path": "."}, "")]}),
            ("a", "No `default_tags` yet; I added `default_tags { tags = { cost-center = var.cost_center } }` to the AWS provider "
                  "in each env."),
            ("u", "One more: the audit says backup retention for prod is 30 days from January, so change the 14 to 30 now."),
            ("a", "Prod `backup_retention_period` is 30 days now; staging stays at 3."),
            ("u", "Thank you."),
        ],
        "gold": [
            {"id": "endpoints", "kind": "decision", "must": ["gateway endpoints"]},
            {"id": "staging_nat", "kind": "decision", "must": ["leave staging nat"]},
            {"id": "atlantis", "kind": "fact", "must": ["atlantis.ops.ck.internal"]},
            {"id": "tags", "kind": "preference", "must": ["cost-center", "default_tags"]},
            {"id": "retention_prod", "kind": "decision", "must": ["retention", "30"]},
        ],
        "noise": ["Morning. Finance", "UnblendedCost", "Plan: 4 to add", "412.8812"],
        "secrets": [],
        "updates": [["cloudkeep-01-state:atlantis", "cloudkeep-03-cost:atlantis"],
                    ["cloudkeep-02-rds:retention_prod", "cloudkeep-03-cost:retention_prod"]],
        "distinct": [["cloudkeep-03-cost:retention_prod", "cloudkeep-02-rds:retention_stg"]],
    },
    {
        "name": "hivemon-01-scale", "order": 84, "project": "hivemon", "cwd": "/home/rafa/fw/hivemon",
        "session": _s(84), "start": "2026-11-29T16:00:00", "split": "fresh8",
        "turns": [
            ("u", "hola. firmware for a beehive scale, nrf52840 with ncs 2.6.1 (zephyr). load cell on a HX711 and a SHT31 temp "
                  "sensor over i2c. problem: the weigth readings jump like +-300g every few minutes, bees dont weigh that much"),
            ("a", "", {"thinking": "HX711 is clocked by bit-banging PD_SCK. If SCK stays high over 60 us the chip powers down and "
                                   "the conversion is garbage. BLE interrupts preempting the loop would do exactly that, every few minutes.",
                       "tools": [("Read", {"file_path": "/home/rafa/fw/hivemon/src/hx711.c"}, HV_HX),
                                 ("Bash", {"command": "west build -b nrf52840dk_nrf52840 app"}, HV_BUILD)]}),
            ("a", "The HX711 driver bit-bangs PD_SCK in a loop that the BLE controller's interrupts can preempt. If SCK stays "
                  "high for more than 60 µs the HX711 goes into power-down and that reading is garbage — the jumps you see. Fix: "
                  "wrap the 24 clock pulses in `irq_lock()` / `irq_unlock()` (about 50 µs in total), and drop any reading more "
                  "than 50 g away from the median of the last five."),
            ("u", "ok try"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/rafa/fw/hivemon/src/hx711.c",
                                           "old_string": "\tfor (int i = 0; i < 24; i++) {",
                                           "new_string": "\tunsigned int key = irq_lock();\n\n\tfor (int i = 0; i < 24; i++) {"},
                                  "The file /home/rafa/fw/hivemon/src/hx711.c has been updated."),
                                 ("Bash", {"command": "west build && west flash"}, HV_FLASH),
                                 ("Bash", {"command": "timeout 600 nrfjprog --rtt | grep scale"}, HV_LOG)]}),
            ("a", "Flashed and watched the log for 10 minutes: the readings stay within ±4 g now."),
            ("u", "wow nice!! thats it"),
            ("u", "some rules for this repo: no dynamic allocation, no malloc or k_malloc ever, everything static. and code style "
                  "is zephyr style, the .clang-format is in the root"),
            ("u", "we build with west build -b nrf52840dk_nrf52840 app"),
            ("a", "That's the command I used. Is the sample interval in `CONFIG_HIVEMON_INTERVAL_MIN` (10) what you want?"),
            ("u", "yes, samples go every 10 min over BLE to the gateway, a raspberry in the garden. gateway mac is D4:3A:2C:11:8F:07"),
            ("u", "gracias!!"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["ncs 2.6.1"]},
            {"id": "hx711", "kind": "bugfix", "must": ["hx711", "irq_lock"]},
            {"id": "malloc", "kind": "preference", "must": ["malloc"]},
            {"id": "clang_format", "kind": "preference", "must": ["clang-format"]},
            {"id": "build", "kind": "fact", "must": ["west build -b nrf52840dk_nrf52840"]},
            {"id": "interval", "kind": "fact", "must": ["10 min"]},
            {"id": "gateway", "kind": "fact", "must": ["d4:3a:2c:11:8f:07"]},
        ],
        "noise": ["hola.", "Memory region", "runners.nrfjprog", "wow nice", "<inf> scale", "gracias!!"],
        "secrets": [],
    },
    {
        "name": "chorus-02-reminders", "order": 85, "project": "chorus", "cwd": "/home/sam/code/chorus",
        "session": _s(85), "start": "2026-11-30T18:10:00", "split": "fresh8", "torn": True,
        "turns": [
            ("meta", CAVEAT),
            ("meta", "<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>"),
            ("meta", "<local-command-stdout></local-command-stdout>"),
            ("u", "heyy so the reminder emails went out at 9am UTC instead of 9am our time (we're in Denver) so people got them "
                  "at 2am 😅 my phone was buzzing all night"),
            ("a", "", {"thinking": "Oban's Cron plugin schedules in UTC unless given a timezone.",
                       "tools": [("Read", {"file_path": "/home/sam/code/chorus/config/config.exs"}, CH_CONFIG)]}),
            ("a", "Oban's Cron plugin evaluates crontabs in UTC unless you pass `timezone:`. Fix: add `timezone: "
                  "\"America/Denver\"` to the Cron plugin config (it needs a time zone database, so I'd add the `tz` dependency "
                  "and set it as Elixir's `:time_zone_database`). OK?"),
            ("u", "yes pls"),
            ("u", "also can we move the reminders to wednesday 6pm? thursday morning is too late, people already made plans by then"),
            ("a", "", {"tools": [("Edit", {"file_path": "/home/sam/code/chorus/config/config.exs",
                                           "old_string": "{Oban.Plugins.Cron, crontab: [{\"0 9 * * 4\", Chorus.Workers.RehearsalReminder}]}",
                                           "new_string": "{Oban.Plugins.Cron, timezone: \"America/Denver\", crontab: [{\"0 18 * * 3\", Chorus.Workers.RehearsalReminder}]}"},
                                  "The file /home/sam/code/chorus/config/config.exs has been updated."),
                                 ("Bash", {"command": "mix deps.get && mix test"}, "Resolving Hex dependencies...\nResolution completed in 0.21s\n"
                                          "New:\n  tz 0.28.1\n* Getting tz (Hex package)\n" + CH_TEST.replace("Compiling 4 files", "Compiling 3 files"))]}),
            ("a", "The reminder cron is `0 18 * * 3` in America/Denver now — Wednesdays 18:00 local."),
            ("u", "ok and elixir — we upgraded to 1.18 on fly last night (the dockerfile), so update .tool-versions too"),
            ("a", "`.tool-versions` says `elixir 1.18.1-otp-27` now, matching the Dockerfile."),
            ("u", "oh and for later: staging db is on the shared fly postgres cluster chorus-pg-staging, prod has its own, "
                  "chorus-pg-main. don't mix them up lol"),
            ("a", "Got it."),
        ],
        "gold": [
            {"id": "tz_bug", "kind": "bugfix", "must": ["utc", "america/denver"]},
            {"id": "reminder", "kind": "decision", "must": ["reminder", "wednesday"]},
            {"id": "elixir", "kind": "fact", "must": ["elixir", "1.18"]},
            {"id": "db_stg", "kind": "fact", "must": ["chorus-pg-staging"]},
            {"id": "db_prod", "kind": "fact", "must": ["chorus-pg-main"]},
        ],
        "noise": ["heyy so", "Compiling 3 files", "Resolving Hex dependencies", "Got it.", "command-name", "Caveat"],
        "secrets": [],
        "updates": [["chorus-01-liveview:reminder", "chorus-02-reminders:reminder"],
                    ["chorus-01-liveview:elixir", "chorus-02-reminders:elixir"]],
        "distinct": [["chorus-01-liveview:phoenix", "chorus-02-reminders:elixir"],
                     ["chorus-02-reminders:db_stg", "chorus-02-reminders:db_prod"]],
    },
    {
        "name": "hivemon-02-battery", "order": 86, "project": "hivemon", "cwd": "/home/rafa/fw/hivemon",
        "session": _s(86), "start": "2026-12-01T11:30:00", "split": "fresh8", "branch": "power",
        "turns": [
            ("u", "battery is dead in 3 weeks, should be 6 months. 2x AA"),
            ("a", "", {"thinking": "Measure first. Common culprits on nRF52: UART console keeping HFCLK on, sensors powered permanently.",
                       "tools": [("Read", {"file_path": "/home/rafa/fw/hivemon/app/prj.conf"}, HV_PRJ),
                                 ("Bash", {"command": "ppk2-cli measure --duration 600 --voltage 3000"}, HV_PPK)]}),
            ("a", "Average current is 1.9 mA. Two reasons: UART logging is enabled (`CONFIG_SERIAL=y`, `CONFIG_LOG=y`), which "
                  "keeps the high-frequency clock and the UART peripheral running, and the HX711 is powered all the time "
                  "(≈1.5 mA). I'd turn serial and logging off in a `prj_release.conf` overlay, and power the HX711 through a "
                  "GPIO-switched load switch only while measuring."),
            ("u", "the load switch needs a new pcb. for now only the software part. and change interval to 15 min, 10 is not necesary"),
            ("a", "", {"tools": [("Write", {"file_path": "/home/rafa/fw/hivemon/app/prj_release.conf",
                                            "content": "CONFIG_SERIAL=n\nCONFIG_CONSOLE=n\nCONFIG_UART_CONSOLE=n\nCONFIG_LOG=n\nCONFIG_HIVEMON_INTERVAL_MIN=15\n"},
                                  "File created successfully at: /home/rafa/fw/hivemon/app/prj_release.conf"),
                                 ("Bash", {"command": "west build -b nrf52840dk_nrf52840 app -- -DEXTRA_CONF_FILE=prj_release.conf && west flash && "
                                                      "ppk2-cli measure --duration 600 --voltage 3000"}, HV_BUILD + HV_FLASH + HV_PPK2)]}),
            ("a", "With `-DEXTRA_CONF_FILE=prj_release.conf` and the 15 min interval the average is 41 µA — roughly 7 months "
                  "on 2×AA going by the datasheet capacity."),
            ("u", "perfect. release builds always with that overlay from now. i put it in the CI"),
            ("u", "about ncs, i go to 2.7.0 next week, not now. dont change it yet"),
            ("a", "OK, staying on 2.6.1 for now."),
            ("u", "the ble pairing passkey for the gateway is 482913, the old gateways have it hardcoded so we cant change it"),
            ("a", "I'll keep it out of the repo; the firmware reads it from the `hivemon_secrets` partition as before."),
            ("u", "gracias, hasta luego"),
        ],
        "gold": [
            {"id": "battery", "kind": "bugfix", "must": ["uart", "prj_release.conf"]},
            {"id": "interval", "kind": "decision", "must": ["interval", "15 min"]},
            {"id": "release_build", "kind": "preference", "must": ["release builds", "overlay"]},
            {"id": "ncs_plan", "kind": "fact", "must": ["2.7.0", "next week"]},
        ],
        "noise": ["hasta luego", "Average current:", "Done programming", "Charge: 24.8 mC"],
        "secrets": ["482913"],
        "updates": [["hivemon-01-scale:interval", "hivemon-02-battery:interval"]],
        "distinct": [["hivemon-01-scale:build", "hivemon-02-battery:release_build"],
                     ["hivemon-01-scale:stack", "hivemon-02-battery:ncs_plan"]],
    },
]
