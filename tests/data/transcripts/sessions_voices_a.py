"""Voices set A (see build_voices.py): a terse Tauri developer, a chatty British Django team lead, a
Russian-speaking embedded Rust developer. Labels written with the conversations, before any run."""

CARGO_TEST = ("running 38 tests\n" + "".join(f"test notes::tests::case_{i} ... ok\n" for i in range(12))
              + "test result: ok. 38 passed; 0 failed; 0 ignored; finished in 0.61s\n")
NPM_BUILD = ("> quillpad@0.4.0 build\n> vite build\n\nvite v5.2.8 building for production...\n"
             "✓ 412 modules transformed.\ndist/index.html   0.46 kB │ gzip: 0.30 kB\n"
             "dist/assets/index-4f1c2a.js  188.22 kB │ gzip: 61.05 kB\n✓ built in 3.84s\n")
DJANGO_TEST = ("Creating test database for alias 'default'...\nSystem check identified no issues (0 silenced).\n"
               "..........................F.......\n======================================================================\n"
               "FAIL: test_sla_breach_email (tickets.tests.test_sla.SlaTests)\n"
               "AssertionError: 0 != 1 : expected one breach email\n----------------------------------------------------------------------\n"
               "Ran 34 tests in 4.211s\n\nFAILED (failures=1)\nDestroying test database for alias 'default'...\n")
PIP_FREEZE = "Django==5.0.6\ncelery==5.4.0\npsycopg==3.1.19\nredis==5.0.4\nsentry-sdk==2.3.1\ngunicorn==22.0.0\n"
PROBE = ("      Finished `dev` profile [unoptimized + debuginfo] target(s) in 11.02s\n     Running `probe-rs run --chip STM32H743ZITx target/thumbv7em-none-eabihf/debug/orbitcam`\n"
         "      Erasing ✔ [00:00:01] [######] 128.00 KiB/128.00 KiB @ 91.33 KiB/s\n  Programming ✔ [00:00:02]\n"
         "0.000000 INFO  boot orbitcam v0.2.0\n0.001221 INFO  sensor id 0x5640\n0.914002 WARN  dcmi overrun, frame dropped\n")
DMESG = "[ 8812.01] usb 1-2: new high-speed USB device number 9 using xhci_hcd\n[ 8812.33] cdc_acm 1-2:1.0: ttyACM0: USB ACM device\n"

VOICES_A = [
    {
        "name": "v-quillpad-01-init", "order": 301, "project": "quillpad", "cwd": "/home/tk/code/quillpad",
        "session": "d1e2f3a4-0001-4ccc-8ddd-000000000301", "start": "2026-11-02T08:01:00", "v2": True,
        "turns": [
            ("u", "tauri 2 app, frontend svelte 5 + vite. notes stored as markdown files, no db"),
            ("a", "Got it. I'll look at the layout.", {"tools": [("Bash", {"command": "ls src src-tauri/src"}, "App.svelte\nlib/\nmain.ts\nmain.rs\nnotes.rs\n")]}),
            ("a", "The Rust side lives in `src-tauri/src/notes.rs` and the Svelte UI in `src/`. Do you want the notes folder to be configurable?"),
            ("u", "yes. default ~/Documents/Quillpad"),
            ("a", "OK, I'll add a setting with that default."),
            ("u", "pnpm not npm"),
            ("a", "Switched the scripts to pnpm.", {"tools": [("Bash", {"command": "pnpm build"}, NPM_BUILD)]}),
            ("a", "Build is green."),
            ("u", "k. tests: cargo test + vitest. both before push"),
            ("a", "Noted.", {"tools": [("Bash", {"command": "cd src-tauri && cargo test"}, CARGO_TEST)]}),
            ("u", "min macos 12, windows 10. no linux for now"),
            ("a", "I'll set the bundle targets to dmg and msi."),
            ("u", "ok thx"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["tauri 2", "svelte 5"]},
            {"id": "nodb", "kind": "decision", "must": ["markdown", "no db"]},
            {"id": "folder", "kind": "fact", "must": ["~/documents/quillpad"]},
            {"id": "pnpm", "kind": "preference", "must": ["pnpm not npm"]},
            {"id": "tests", "kind": "preference", "must": ["cargo test", "vitest", "push"]},
            {"id": "targets", "kind": "fact", "must": ["macos 12", "windows 10"]},
        ],
        "noise": ["Build is green", "ok thx", "412 modules", "0.61s", "Got it"],
        "secrets": [],
    },
    {
        "name": "v-quillpad-02-sync", "order": 302, "project": "quillpad", "cwd": "/home/tk/code/quillpad",
        "session": "d1e2f3a4-0002-4ccc-8ddd-000000000302", "start": "2026-11-04T19:40:00", "v2": True,
        "turns": [
            ("u", "need sync between devices. options?"),
            ("a", "Three realistic ones: (1) let the user point the notes folder at iCloud/Dropbox and do nothing ourselves, (2) a small sync server of our own with CRDTs (Automerge), (3) git under the hood, committing on save. (1) is zero work but conflicts become duplicate files; (2) is the most robust and the most work; (3) gives history for free but merge conflicts in prose are ugly."),
            ("u", "2 sounds overkill. 1 for now"),
            ("a", "OK — no sync code; I'll document pointing the folder at a cloud drive and detect `conflicted copy` files so they show up in the sidebar."),
            ("u", "wait actually. people will lose edits with 1. do 3, git, autocommit on save, debounce 10s"),
            ("a", "Understood: git via `git2` in the Rust side, one commit per save debounced to 10 seconds, push/pull when a remote is configured."),
            ("u", "yes"),
            ("a", "", {"tools": [("Edit", {"file_path": "src-tauri/src/sync.rs"}, "ok"), ("Bash", {"command": "cd src-tauri && cargo test"}, CARGO_TEST)]}),
            ("a", "Added `sync.rs` with the debounced committer; tests pass."),
            ("u", "commit msg format 'notes: <file>'"),
            ("a", "Done."),
        ],
        "gold": [
            {"id": "sync", "kind": "decision", "must": ["git", "autocommit", "debounce 10s"]},
            {"id": "msg", "kind": "preference", "must": ["notes: <file>"]},
        ],
        "noise": ["2 sounds overkill", "tests pass", "conflicted copy"],
        "secrets": [],
    },
    {
        "name": "v-quillpad-03-perf", "order": 303, "project": "quillpad", "cwd": "/home/tk/code/quillpad",
        "session": "d1e2f3a4-0003-4ccc-8ddd-000000000303", "start": "2026-11-09T07:55:00",
        "turns": [
            ("u", "sidebar freezes w/ 5k notes"),
            ("a", "", {"thinking": "Probably reading every file on startup to get titles.",
                       "tools": [("Grep", {"pattern": "read_to_string", "path": "src-tauri/src"}, "src-tauri/src/notes.rs:41:    let body = fs::read_to_string(&p)?;\n")]}),
            ("a", "The sidebar freeze comes from `list_notes` reading every file in full just to get its title, on the UI thread. I changed it to read only the first 256 bytes for the title and to run on a Tauri async command, and the list is virtualised with `svelte-virtual-list` now. 5,000 notes open in about 80 ms."),
            ("u", "nice"),
            ("u", "bumped min macos to 13 btw, apple dropped 12 in xcode 16"),
            ("a", "Updated `minimumSystemVersion` to 13.0 in `tauri.conf.json`."),
            ("u", "also never block the main thread with fs calls. everything fs goes through async commands"),
            ("a", "Will keep to that."),
            ("u", "gn"),
        ],
        "gold": [
            {"id": "freeze", "kind": "bugfix", "must": ["sidebar freeze", "first 256 bytes"]},
            {"id": "macos", "kind": "fact", "must": ["macos to 13"]},
            {"id": "fs", "kind": "preference", "must": ["main thread", "async commands"]},
        ],
        "updates": [["v-quillpad-01-init:targets", "v-quillpad-03-perf:macos"]],
        "noise": ["nice", "gn", "Will keep to that"],
        "secrets": [],
    },
    {
        "name": "v-ferrydesk-01-hello", "order": 304, "project": "ferrydesk", "cwd": "/srv/dev/ferrydesk",
        "session": "d1e2f3a4-0004-4ccc-8ddd-000000000304", "start": "2026-11-03T10:15:00",
        "turns": [
            ("u", "Morning! Right, so I've just inherited this helpdesk thing from a contractor and honestly I'm not quite sure what state it's in. It's Django, I think 5.0, with Celery doing the email bits. Could you have a poke around and tell me what you find?"),
            ("a", "Let me look.", {"tools": [("Bash", {"command": "pip freeze | head"}, PIP_FREEZE), ("Bash", {"command": "python manage.py test"}, DJANGO_TEST)]}),
            ("a", "It's Django 5.0.6 with Celery 5.4 and Redis as the broker, Postgres through psycopg 3, Sentry for errors and gunicorn in front. One test fails: `test_sla_breach_email` expects a breach email that never gets sent."),
            ("u", "Lovely, thank you. Yes, the SLA emails have been flaky for ages, the support folks keep moaning about it. We'll come back to that one. First though, a bit of housekeeping if you don't mind: we format with black and sort imports with isort, and I'd like that enforced with pre-commit going forward."),
            ("a", "I'll add a `.pre-commit-config.yaml` with black and isort and run it across the repo."),
            ("u", "Brilliant. Oh and another thing, the staging box is staging.ferrydesk.co.uk and production is help.ferrydesk.co.uk, please don't ever point anything at production from your machine, that's been a source of grief before."),
            ("a", "Understood — nothing local will target help.ferrydesk.co.uk."),
            ("u", "Cheers. I think that's probably enough for this morning, I need a cuppa."),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["django 5.0.6", "celery"]},
            {"id": "precommit", "kind": "preference", "must": ["black", "isort", "pre-commit"]},
            {"id": "staging", "kind": "fact", "must": ["staging.ferrydesk.co.uk"]},
            {"id": "prod", "kind": "fact", "must": ["help.ferrydesk.co.uk"]},
        ],
        "distinct": [["v-ferrydesk-01-hello:staging", "v-ferrydesk-01-hello:prod"]],
        "noise": ["Morning!", "cuppa", "Let me look", "Ran 34 tests", "support folks keep moaning"],
        "secrets": [],
    },
    {
        "name": "v-ferrydesk-02-sla", "order": 305, "project": "ferrydesk", "cwd": "/srv/dev/ferrydesk",
        "session": "d1e2f3a4-0005-4ccc-8ddd-000000000305", "start": "2026-11-05T14:20:00", "branch": "fix/sla-emails",
        "turns": [
            ("u", "Afternoon. Shall we have a go at those SLA breach emails now? They're meant to go out when a ticket's been open past its SLA, but half the time nothing arrives."),
            ("a", "", {"thinking": "Check the beat schedule and the task. Maybe timezone.",
                       "tools": [("Read", {"file_path": "/srv/dev/ferrydesk/tickets/tasks.py"}, "  12\t@shared_task\n  13\tdef check_sla():\n  14\t    now = datetime.now()\n  15\t    for t in Ticket.objects.filter(due__lt=now, breached=False):\n"),
                                 ("Bash", {"command": "grep -n TIME_ZONE -r ferrydesk/settings"}, "ferrydesk/settings/base.py:88:TIME_ZONE = 'Europe/London'\nferrydesk/settings/base.py:89:USE_TZ = True\n")]}),
            ("a", "Found it. `check_sla` compares the tickets' aware UTC `due` times with a naive `datetime.now()`, which Django treats as local London time, so during BST every ticket looks an hour less overdue and the task misses the ones that breach close to its run. I changed it to `timezone.now()` and added a test that runs the check across the clock change; the failing test passes now."),
            ("u", "Oh for goodness' sake, timezones again. Well spotted. Let's have a rule then: always use django.utils.timezone.now, never datetime.now, anywhere in the codebase."),
            ("a", "I'll add a ruff rule (DTZ005) so a bare `datetime.now()` fails the lint."),
            ("u", "Perfect. While we're at it, how often does the SLA check run at the moment?"),
            ("a", "Every 15 minutes, from the Celery beat schedule in `ferrydesk/celery.py`."),
            ("u", "Hmm, that's a bit coarse. Make it every 5 minutes please."),
            ("a", "Changed the beat schedule to every 5 minutes."),
            ("u", "Ta very much."),
        ],
        "gold": [
            {"id": "sla", "kind": "bugfix", "must": ["timezone.now()", "naive"]},
            {"id": "rule", "kind": "preference", "must": ["timezone.now", "never datetime.now"]},
            {"id": "every5", "kind": "fact", "must": ["every 5 minutes"]},
        ],
        "noise": ["Afternoon", "Ta very much", "Well spotted", "Europe/London"],
        "secrets": [],
    },
    {
        "name": "v-ferrydesk-03-deploy", "order": 306, "project": "ferrydesk", "cwd": "/srv/dev/ferrydesk",
        "session": "d1e2f3a4-0006-4ccc-8ddd-000000000306", "start": "2026-11-12T09:05:00",
        "turns": [
            ("u", "Hello again. Bit of news: we've moved staging, it's now stage.ferrydesk.net because the .co.uk domain is being wound down for anything that isn't customer facing. Production stays exactly where it is."),
            ("a", "Noted — staging is stage.ferrydesk.net; production is still help.ferrydesk.co.uk. Do you want me to update the deploy scripts?"),
            ("u", "Yes please. And while you're in there, the deploys currently go out with a hand-rolled fabfile which nobody understands. I've been chatting to the team and we'd like to move the deploys over to GitHub Actions with a manual approval step for production."),
            ("a", "I'll replace the fabfile with a workflow: staging deploys on every merge to main, production needs an approval in the `production` environment."),
            ("u", "Sounds about right. Also our Sentry DSN ended up pasted in the fabfile in plain text, https://4f9a7c21e0b34d5f@o1120.ingest.sentry.io/6655, can you make sure it comes from the environment instead?"),
            ("a", "Moved it to the `SENTRY_DSN` secret in the workflow and read it from the environment in settings; it's gone from the repo."),
            ("u", "Marvellous, thanks ever so much. I'll give it a whirl after lunch."),
        ],
        "gold": [
            {"id": "staging", "kind": "fact", "must": ["stage.ferrydesk.net"]},
            {"id": "gha", "kind": "decision", "must": ["github actions", "approval"]},
        ],
        "updates": [["v-ferrydesk-01-hello:staging", "v-ferrydesk-03-deploy:staging"]],
        "noise": ["Hello again", "give it a whirl", "Marvellous", "nobody understands"],
        "secrets": ["4f9a7c21e0b34d5f@o1120.ingest.sentry.io"],
    },
    {
        "name": "v-orbitcam-01-setup", "order": 307, "project": "orbitcam", "cwd": "/home/dmitry/orbitcam",
        "session": "d1e2f3a4-0007-4ccc-8ddd-000000000307", "start": "2026-11-06T21:30:00",
        "turns": [
            ("u", "Hello. Project is firmware for small camera board, MCU is STM32H743, sensor OV5640. We write it on Rust with embassy, no C code except vendor HAL is not used at all."),
            ("a", "Understood: Rust + Embassy on an STM32H743 with an OV5640, no vendor C HAL. How do you flash and debug?"),
            ("u", "With probe-rs. Debug probe is ST-Link V3. Please never use openocd, it make problems with our probe."),
            ("a", "OK, probe-rs only.", {"tools": [("Bash", {"command": "cargo run"}, PROBE)]}),
            ("a", "Flashed and booted; the log shows `dcmi overrun, frame dropped` about once a second."),
            ("u", "Yes this is known, we look at it later. Logging we make with defmt, not with println or rtt-target directly."),
            ("a", "Noted: defmt for all logging."),
            ("u", "Target frame size is 1280x720 at 30 fps, JPEG from sensor. It is requirement from customer, cannot change."),
            ("a", "OK, 1280x720 JPEG at 30 fps is fixed."),
            ("u", "Thank you, for today is all."),
        ],
        "gold": [
            {"id": "mcu", "kind": "fact", "must": ["stm32h743", "ov5640"]},
            {"id": "embassy", "kind": "fact", "must": ["rust", "embassy"]},
            {"id": "probe", "kind": "preference", "must": ["never use openocd"]},
            {"id": "defmt", "kind": "preference", "must": ["defmt", "println"]},
            {"id": "frame", "kind": "fact", "must": ["1280x720", "30 fps"]},
        ],
        "noise": ["for today is all", "Erasing", "sensor id 0x5640", "we look at it later"],
        "secrets": [],
    },
    {
        "name": "v-orbitcam-02-overrun", "order": 308, "project": "orbitcam", "cwd": "/home/dmitry/orbitcam",
        "session": "d1e2f3a4-0008-4ccc-8ddd-000000000308", "start": "2026-11-08T20:10:00",
        "turns": [
            ("u", "Now we fix the dcmi overrun. Frames are dropped ~1 per second, at 30 fps."),
            ("a", "", {"thinking": "DMA buffer in DTCM? AXI SRAM? Check memory.x and the DMA setup.",
                       "tools": [("Read", {"file_path": "/home/dmitry/orbitcam/memory.x"}, "MEMORY\n{\n  FLASH : ORIGIN = 0x08000000, LENGTH = 2M\n  RAM   : ORIGIN = 0x20000000, LENGTH = 128K\n}\n"),
                                 ("Grep", {"pattern": "static mut FRAME", "path": "src"}, "src/camera.rs:22:static mut FRAME: [u8; 96 * 1024] = [0; 96 * 1024];\n")]}),
            ("a", "The overrun happens because the frame buffer sits in DTCM RAM at 0x20000000, which the DMA1 controller cannot reach at full speed on the H7, and one 96 KB buffer means the DMA waits while we copy out. I moved the buffers into AXI SRAM (a new `.axisram` section at 0x24000000) and made it double-buffered, so DMA writes one while we read the other. No dropped frames over 10 minutes now."),
            ("u", "Super, works on my board also. So rule for this project: all DMA buffers go in AXI SRAM, never in DTCM."),
            ("a", "I'll add that to the README's memory section too."),
            ("u", "Also, we change the JPEG quality to 85, before was default from sensor. This is decided with customer."),
            ("a", "Set the OV5640 quantisation for quality 85."),
            ("u", "Good night"),
        ],
        "gold": [
            {"id": "overrun", "kind": "bugfix", "must": ["overrun", "axi sram", "double-buffered"]},
            {"id": "dma", "kind": "preference", "must": ["dma buffers", "axi sram", "never in dtcm"]},
            {"id": "quality", "kind": "decision", "must": ["jpeg quality to 85"]},
        ],
        "noise": ["Good night", "works on my board also", "0x08000000"],
        "secrets": [],
    },
    {
        "name": "v-orbitcam-03-wifi", "order": 309, "project": "orbitcam", "cwd": "/home/dmitry/orbitcam",
        "session": "d1e2f3a4-0009-4ccc-8ddd-000000000309", "start": "2026-11-15T19:00:00",
        "turns": [
            ("u", "Customer changed requirement. Now is 1920x1080 at 15 fps instead of 1280x720. Bandwidth of wifi is limit."),
            ("a", "Understood, I'll change the sensor mode to 1080p at 15 fps. Which Wi-Fi module streams the frames?"),
            ("u", "ESP32-C6 over SPI, with esp-hosted firmware. SPI clock 40 MHz, not more, at 50 it gets errors on our PCB."),
            ("a", "OK. I'll cap the SPI clock at 40 MHz in `board.rs`.", {"tools": [("Bash", {"command": "dmesg | tail -2"}, DMESG)]}),
            ("u", "The wifi password for test network in lab is Orb1tLab!2026 but dont put it in code, we use provisioning over BLE."),
            ("a", "Nothing goes in the code; credentials come from BLE provisioning and live in the flash config page."),
            ("u", "ok. and let us choose: stream with RTSP or with simple MJPEG over HTTP? what you think"),
            ("a", "MJPEG over HTTP is trivial on the MCU side and every browser shows it; RTSP needs RTP packetisation and a client like VLC, but players handle it better on flaky links."),
            ("u", "MJPEG over HTTP, simpler is better for us"),
            ("a", "OK, I'll implement an MJPEG HTTP endpoint at `/stream`."),
        ],
        "gold": [
            {"id": "frame", "kind": "fact", "must": ["1920x1080", "15 fps"]},
            {"id": "esp", "kind": "fact", "must": ["esp32-c6", "spi"]},
            {"id": "spi", "kind": "preference", "must": ["40 mhz"]},
            {"id": "mjpeg", "kind": "decision", "must": ["mjpeg over http"]},
        ],
        "updates": [["v-orbitcam-01-setup:frame", "v-orbitcam-03-wifi:frame"]],
        "noise": ["cdc_acm", "what you think"],
        "secrets": ["Orb1tLab!2026"],
    },
]
