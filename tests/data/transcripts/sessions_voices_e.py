"""Voices set E (see build_voices.py): a Korean-speaking Unity game-server developer, a Polish Quarkus
developer, an Australian homelabber, a long-winded bioinformatician, a Dutch Symfony developer, an
Italian IoT tinkerer. Labels written with the conversations, before any run."""

DOTNET_TEST = ("  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
               "  Starlane.Server -> /home/minji/starlane/bin/Debug/net8.0/Starlane.Server.dll\n"
               "Passed!  - Failed:     0, Passed:    64, Skipped:     0, Total:    64, Duration: 3 s\n")
MVN = ("[INFO] Scanning for projects...\n[INFO] Building kasa-api 1.4.0-SNAPSHOT\n[INFO] Tests run: 112, Failures: 0, Errors: 0, Skipped: 2\n"
       "[INFO] BUILD SUCCESS\n[INFO] Total time:  41.230 s\n")
KUBECTL = ("NAME                          READY   STATUS             RESTARTS      AGE\njellyfin-7d9f8c6b5-x2k4p      0/1     CrashLoopBackOff   14 (2m ago)   1h\n"
           "immich-server-5c7b9d-q8w2e     1/1     Running            0             3d\n")
KLOGS = "[FATAL] Failed to create CoreCLR, HRESULT: 0x80004005\nchown: /config: Operation not permitted\n"
SNAKEMAKE = ("Building DAG of jobs...\nUsing shell: /usr/bin/bash\nProvided cores: 32\nJob stats:\njob          count\n---------  -------\nalign           96\ncall_variants   96\nall              1\n"
             "Error in rule call_variants:\n    jobid: 141\n    output: results/vcf/S17.vcf.gz\nMissingOutputException in rule call_variants\n")
PHPUNIT = "PHPUnit 11.2.1 by Sebastian Bergmann and contributors.\n\n...............................  31 / 31 (100%)\n\nTime: 00:01.844, Memory: 38.00 MB\n\nOK (31 tests, 88 assertions)\n"
PIO = ("Processing esp32dev (platform: espressif32; board: esp32dev; framework: arduino)\n"
       "RAM:   [=         ]  14.2% (used 46452 bytes from 327680 bytes)\nFlash: [=======   ]  71.3% (used 934521 bytes from 1310720 bytes)\n"
       "========================= [SUCCESS] Took 22.19 seconds =========================\n")

VOICES_E = [
    {
        "name": "v-starlane-01-server", "order": 337, "project": "starlane", "cwd": "/home/minji/starlane",
        "session": "d1e2f3a4-0037-4ccc-8ddd-000000000337", "start": "2026-11-04T04:00:00",
        "turns": [
            ("u", "안녕하세요. starlane is the game server for our mobile game, client is Unity. server is C# .NET 8, using MagicOnion for the RPC and it runs on Linux containers."),
            ("a", "", {"tools": [("Bash", {"command": "dotnet test"}, DOTNET_TEST)]}),
            ("a", "All 64 tests pass on .NET 8. How is player state persisted?"),
            ("u", "player data is in DynamoDB, the match state is only in memory of the server, we not save it. if server die the match is lost, this is ok for us."),
            ("a", "Understood: DynamoDB for player data; match state is in memory only by design."),
            ("u", "tick rate of the server is 20 Hz. please do not change it without asking me, the client prediction is tuned for this."),
            ("a", "OK, the 20 Hz tick stays."),
            ("u", "and all the network messages we define with MessagePack, not JSON, for the size"),
            ("a", "Noted, MessagePack for every message."),
            ("u", "감사합니다!"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": [".net 8", "magiconion"]},
            {"id": "dynamo", "kind": "fact", "must": ["dynamodb", "player data"]},
            {"id": "tick", "kind": "preference", "must": ["20 hz"]},
            {"id": "msgpack", "kind": "preference", "must": ["messagepack", "not json"]},
        ],
        "noise": ["감사합니다", "All projects are up-to-date", "this is ok for us"],
        "secrets": [],
    },
    {
        "name": "v-starlane-02-desync", "order": 338, "project": "starlane", "cwd": "/home/minji/starlane",
        "session": "d1e2f3a4-0038-4ccc-8ddd-000000000338", "start": "2026-11-07T05:20:00",
        "turns": [
            ("u", "players report they teleport back sometimes, only on android with bad network. ios is fine."),
            ("a", "", {"thinking": "Rubber-banding. Check how the server handles out-of-order inputs.",
                       "tools": [("Grep", {"pattern": "ApplyInput", "path": "src/Starlane.Server"}, "src/Starlane.Server/Match/MatchLoop.cs:77:    player.ApplyInput(msg.Seq, msg.Move);\n")]}),
            ("a", "The rubber-banding comes from `ApplyInput` accepting inputs out of order: on lossy Android networks a late packet with an older sequence number is applied after a newer one, so the server moves the player back and the client snaps to it. I now drop any input whose sequence is not newer than the last applied one, and the reconciliation uses the last acknowledged sequence. With 10% packet loss in the simulator nobody teleports any more."),
            ("u", "wow thank you. so rule: server never apply an input older than the last one"),
            ("a", "I'll add it as a comment on `ApplyInput` and a unit test for it."),
            ("u", "also we decide to move player data from DynamoDB to Postgres 16 on RDS, the cost of dynamo is too much for our read pattern"),
            ("a", "OK, I'll plan a `PlayerRepository` on Npgsql against Postgres 16 and a one-off migration."),
            ("u", "yes please"),
        ],
        "gold": [
            {"id": "desync", "kind": "bugfix", "must": ["out of order", "sequence"]},
            {"id": "rule", "kind": "preference", "must": ["never apply an input older"]},
            {"id": "pg", "kind": "decision", "must": ["dynamodb", "postgres 16"]},
        ],
        "updates": [["v-starlane-01-server:dynamo", "v-starlane-02-desync:pg"]],
        "noise": ["wow thank you", "yes please", "ios is fine"],
        "secrets": [],
    },
    {
        "name": "v-kasa-01-quarkus", "order": 339, "project": "kasa-api", "cwd": "/home/piotr/repo/kasa-api",
        "session": "d1e2f3a4-0039-4ccc-8ddd-000000000339", "start": "2026-11-05T07:45:00",
        "turns": [
            ("u", "Cześć. kasa-api is backend for point of sale terminals in small shops. Java 21, Quarkus 3.11, Hibernate Panache, Postgres. We build native image with GraalVM for production."),
            ("a", "", {"tools": [("Bash", {"command": "./mvnw verify"}, MVN)]}),
            ("a", "Build passes: 112 tests, 2 skipped."),
            ("u", "The skipped ones are for the fiscal printer, they need real device. Ignore them."),
            ("a", "OK."),
            ("u", "Important: receipts must be numbered without gaps per terminal per day, it is required by polish fiscal law. So no sequence from database for this, we use a counter table with SELECT FOR UPDATE."),
            ("a", "Understood: a per-terminal, per-day counter row locked with SELECT ... FOR UPDATE, never a database sequence (sequences can skip)."),
            ("u", "Yes exactly. And we keep the reflection config for native image in src/main/resources/reflection-config.json, when you add a DTO please add it there also."),
            ("a", "Will do for every new DTO."),
            ("u", "Dzięki, na razie."),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["java 21", "quarkus 3.11"]},
            {"id": "native", "kind": "fact", "must": ["native image", "graalvm"]},
            {"id": "receipts", "kind": "preference", "must": ["without gaps", "select for update"]},
            {"id": "reflection", "kind": "preference", "must": ["reflection-config.json", "dto"]},
        ],
        "noise": ["Dzięki, na razie", "Ignore them", "BUILD SUCCESS", "Total time"],
        "secrets": [],
    },
    {
        "name": "v-kasa-02-printer", "order": 340, "project": "kasa-api", "cwd": "/home/piotr/repo/kasa-api",
        "session": "d1e2f3a4-0040-4ccc-8ddd-000000000340", "start": "2026-11-10T08:30:00",
        "turns": [
            ("u", "We must choose how terminals talk to the API when internet is down in the shop. Option one, queue locally on terminal and sync later. Option two, a small local server in the shop. What is better?"),
            ("a", "Queueing on the terminal is simpler and has no extra box to maintain; a local shop server lets several terminals share stock counts offline, but it's one more device to fail."),
            ("u", "Most shops have one terminal only. We go with local queue on the terminal, sync when online, max 72 hours offline allowed."),
            ("a", "OK: an outbox on the terminal, replayed in order when online; after 72 hours offline the terminal refuses new sales until it syncs."),
            ("u", "Good. The sandbox key of the fiscal cloud is fk_sbx_77QmW3eRtY9uIoP2aSdF, only in application-dev.properties which is ignored by git."),
            ("a", "Put it in `application-dev.properties` (git-ignored)."),
            ("u", "Also Quarkus we upgrade now to 3.15, it has the fix for the native image memory."),
            ("a", "Bumped `quarkus.platform.version` to 3.15."),
        ],
        "gold": [
            {"id": "offline", "kind": "decision", "must": ["local queue", "72 hours"]},
            {"id": "stack", "kind": "fact", "must": ["quarkus", "3.15"]},
        ],
        "updates": [["v-kasa-01-quarkus:stack", "v-kasa-02-printer:stack"]],
        "noise": ["Most shops have one terminal only"],
        "secrets": ["fk_sbx_77QmW3eRtY9uIoP2aSdF"],
    },
    {
        "name": "v-homelab-01-k3s", "order": 341, "project": "shedlab", "cwd": "/home/mick/shedlab",
        "session": "d1e2f3a4-0041-4ccc-8ddd-000000000341", "start": "2026-11-02T22:00:00",
        "turns": [
            ("u", "g'day mate. got a little k3s cluster in the shed, three old dell optiplexes, running jellyfin, immich and home assistant. jellyfin keeps carking it"),
            ("a", "Let's see.", {"tools": [("Bash", {"command": "kubectl get pods -n media"}, KUBECTL), ("Bash", {"command": "kubectl logs -n media jellyfin-7d9f8c6b5-x2k4p --previous"}, KLOGS)]}),
            ("a", "Jellyfin crash-loops because its init does a `chown` on `/config`, and the NFS export behind that volume squashes root, so the chown is refused and the server exits. I set `fsGroup: 1000` and `runAsUser: 1000` to match the NFS share's owner and turned off the chown in the chart values; the pod is Running now."),
            ("u", "legend. yeah the nas is a synology at 192.168.1.20, all the persistent stuff lives on nfs from it"),
            ("a", "Noted: persistent volumes on NFS from the Synology at 192.168.1.20."),
            ("u", "i do everything with flux from the shedlab repo, dont kubectl apply stuff by hand or flux'll fight ya"),
            ("a", "Understood — changes go through the repo and Flux reconciles them."),
            ("u", "sweet as, cheers"),
        ],
        "gold": [
            {"id": "cluster", "kind": "fact", "must": ["k3s", "optiplex"]},
            {"id": "jellyfin", "kind": "bugfix", "must": ["chown", "fsgroup"]},
            {"id": "nas", "kind": "fact", "must": ["192.168.1.20"]},
            {"id": "flux", "kind": "preference", "must": ["flux", "kubectl apply"]},
        ],
        "noise": ["g'day mate", "legend", "sweet as, cheers", "CrashLoopBackOff", "Let's see"],
        "secrets": [],
    },
    {
        "name": "v-homelab-02-backup", "order": 342, "project": "shedlab", "cwd": "/home/mick/shedlab",
        "session": "d1e2f3a4-0042-4ccc-8ddd-000000000342", "start": "2026-11-09T21:15:00",
        "turns": [
            ("u", "right, backups. what should i use for the cluster, velero or just restic cron jobs?"),
            ("a", "Velero backs up the Kubernetes objects and the volumes together and restores a namespace in one command; restic CronJobs are simpler but you rebuild the objects from Git (which Flux already has)."),
            ("u", "flux has the objects already so restic cronjobs it is. to backblaze b2, nightly 3am"),
            ("a", "OK: a restic CronJob per app at 03:00 to a B2 bucket."),
            ("u", "b2 app key is K004xQ7mZp2RtLw9VbN3cY8dE1fG, stick it in a sealed secret"),
            ("a", "Sealed it with kubeseal; the plain key is nowhere in the repo."),
            ("u", "oh and the nas moved, its 192.168.1.30 now, new router"),
            ("a", "Updated the NFS server in the storage class to 192.168.1.30."),
            ("u", "ta"),
        ],
        "gold": [
            {"id": "backup", "kind": "decision", "must": ["restic", "b2"]},
            {"id": "nas", "kind": "fact", "must": ["192.168.1.30"]},
        ],
        "updates": [["v-homelab-01-k3s:nas", "v-homelab-02-backup:nas"]],
        "noise": ["ta"],
        "secrets": ["K004xQ7mZp2RtLw9VbN3cY8dE1fG"],
    },
    {
        "name": "v-genomics-01-pipeline", "order": 343, "project": "varcall", "cwd": "/scratch/ehalvorsen/varcall",
        "session": "d1e2f3a4-0043-4ccc-8ddd-000000000343", "start": "2026-11-03T13:30:00",
        "turns": [
            ("u", "Hello. I should say at the outset that I'm a biologist first and a programmer a distant second, so please bear with me. We have a Snakemake pipeline that takes paired-end Illumina reads, aligns them with bwa-mem2 against GRCh38, and calls variants with GATK 4.5 HaplotypeCaller. It runs on the university's SLURM cluster."),
            ("a", "That's a clear picture, thank you. Let me run a dry run.", {"tools": [("Bash", {"command": "snakemake -n --profile slurm"}, SNAKEMAKE)]}),
            ("a", "The last real run failed in `call_variants` for sample S17 with a MissingOutputException: the VCF never appeared. Do you know if S17 is special?"),
            ("u", "Ah, S17, yes. I believe that sample had very high coverage, and I suspect the job simply ran out of its time allocation. In any case, our reference genome must always be GRCh38 with the decoy sequences, the analysis set from the Broad, never hg19, because our collaborators compare everything against that."),
            ("a", "Understood: GRCh38 analysis set with decoys, never hg19. The cluster log confirms S17's job hit its 4-hour limit."),
            ("u", "Then please give the variant calling rule more time. Also, and I cannot stress this enough, the raw FASTQ files are never to be modified or deleted, they live under /archive/varcall/raw and are read-only for a reason."),
            ("a", "I'll raise `call_variants` to 12 hours and treat /archive/varcall/raw as read-only input."),
            ("u", "Thank you ever so much, that is tremendously helpful."),
        ],
        "gold": [
            {"id": "pipeline", "kind": "fact", "must": ["snakemake", "bwa-mem2", "gatk 4.5"]},
            {"id": "ref", "kind": "preference", "must": ["grch38", "never hg19"]},
            {"id": "raw", "kind": "preference", "must": ["fastq", "never to be modified"]},
        ],
        "noise": ["bear with me", "tremendously helpful", "Building DAG of jobs", "Provided cores"],
        "secrets": [],
    },
    {
        "name": "v-genomics-02-containers", "order": 344, "project": "varcall", "cwd": "/scratch/ehalvorsen/varcall",
        "session": "d1e2f3a4-0044-4ccc-8ddd-000000000344", "start": "2026-11-10T14:00:00",
        "turns": [
            ("u", "Good afternoon. A reviewer has asked us, quite reasonably I think, whether the pipeline is reproducible. At present everyone uses whatever versions of the tools happen to be installed in their conda environment, which I gather is not ideal. What would you suggest?"),
            ("a", "Pin every tool in a container: Snakemake can run each rule in an Apptainer image (the cluster won't allow Docker), with the image digests in the workflow, so the same inputs give the same outputs anywhere."),
            ("u", "That sounds very sensible. Apptainer images per rule, pinned by digest, and we shall retire the conda environments entirely."),
            ("a", "I'll add a `container:` to each rule with images from BioContainers pinned by sha256 digest, and remove the conda envs."),
            ("u", "Wonderful. One small update for the record: we have moved to GATK 4.6 since last time, the cluster admins installed it and 4.5 is being withdrawn."),
            ("a", "Pinned the GATK 4.6 image for `call_variants`."),
            ("u", "Splendid, thank you."),
        ],
        "gold": [
            {"id": "apptainer", "kind": "decision", "must": ["apptainer", "digest"]},
            {"id": "gatk", "kind": "fact", "must": ["gatk 4.6"]},
        ],
        "updates": [["v-genomics-01-pipeline:pipeline", "v-genomics-02-containers:gatk"]],
        "noise": ["Splendid", "quite reasonably I think", "Good afternoon"],
        "secrets": [],
    },
    {
        "name": "v-fietsplan-01-symfony", "order": 345, "project": "fietsplan", "cwd": "/home/bram/code/fietsplan",
        "session": "d1e2f3a4-0045-4ccc-8ddd-000000000345", "start": "2026-11-06T08:00:00",
        "turns": [
            ("u", "Hoi! Fietsplan is a bike rental booking site for our shop in Utrecht. Symfony 7.1, PHP 8.3, Doctrine, and Twig with Stimulus for the front. Nothing fancy."),
            ("a", "", {"tools": [("Bash", {"command": "vendor/bin/phpunit"}, PHPUNIT)]}),
            ("a", "All 31 tests pass."),
            ("u", "Nice. We do want to keep it simple, so no React or Vue, only Stimulus and Turbo. I am the only developer and I don't want a build chain from hell."),
            ("a", "Understood: Stimulus and Turbo with AssetMapper, no JS framework, no Node build step."),
            ("u", "Exactly, AssetMapper. Payments go with Mollie, because in the Netherlands everybody pays with iDEAL."),
            ("a", "OK, Mollie with iDEAL first."),
            ("u", "Also bookings are per half day, morning 9 to 13 or afternoon 13 to 18, never per hour."),
            ("a", "Noted: two slots a day, no hourly bookings."),
            ("u", "Top, dank je!"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["symfony 7.1", "php 8.3"]},
            {"id": "nojs", "kind": "preference", "must": ["no react or vue", "stimulus"]},
            {"id": "mollie", "kind": "fact", "must": ["mollie", "ideal"]},
            {"id": "slots", "kind": "preference", "must": ["half day", "never per hour"]},
        ],
        "noise": ["Top, dank je", "Nothing fancy", "88 assertions", "build chain from hell"],
        "secrets": [],
    },
    {
        "name": "v-fietsplan-02-double", "order": 346, "project": "fietsplan", "cwd": "/home/bram/code/fietsplan",
        "session": "d1e2f3a4-0046-4ccc-8ddd-000000000346", "start": "2026-11-12T09:00:00",
        "turns": [
            ("u", "Two customers booked the same bike for the same morning yesterday. That should be impossible."),
            ("a", "", {"tools": [("Read", {"file_path": "/home/bram/code/fietsplan/src/Booking/BookingService.php"}, "  40\t        if ($this->repo->isFree($bike, $slot)) {\n  41\t            $this->em->persist(new Booking($bike, $slot, $customer));\n")]}),
            ("a", "The double booking happened because `BookingService` checks `isFree` and then inserts in two steps without a lock, so two requests a few milliseconds apart both see the bike as free. I added a unique constraint on (bike_id, date, slot) in a migration and catch the `UniqueConstraintViolationException` to show \"just taken\"; two parallel requests now give one booking and one error."),
            ("u", "Dank je, great. The Mollie live key is live_Hx8Qm2Zp4Rt6Vw9Yb3Nc7Ld5, it is already in the server env, just so you know it exists."),
            ("a", "Thanks — I'll only reference `MOLLIE_API_KEY` from the environment."),
            ("u", "And we changed the afternoon slot to 13 to 17, we close earlier in winter."),
            ("a", "Updated the afternoon slot to 13:00–17:00."),
        ],
        "gold": [
            {"id": "double", "kind": "bugfix", "must": ["unique constraint", "isfree"]},
            {"id": "slot", "kind": "fact", "must": ["afternoon slot", "13 to 17"]},
        ],
        "noise": ["That should be impossible", "just so you know it exists"],
        "secrets": ["live_Hx8Qm2Zp4Rt6Vw9Yb3Nc7Ld5"],
    },
    {
        "name": "v-serra-01-esp32", "order": 347, "project": "serra", "cwd": "/home/giulia/serra",
        "session": "d1e2f3a4-0047-4ccc-8ddd-000000000347", "start": "2026-11-07T18:00:00",
        "turns": [
            ("u", "Ciao! Serra is my greenhouse controller, ESP32 with PlatformIO and Arduino framework. It reads a SHT31 for temperature and humidity and opens the window with a linear actuator."),
            ("a", "", {"tools": [("Bash", {"command": "pio run"}, PIO)]}),
            ("a", "It builds: 71% of flash used."),
            ("u", "The data goes with MQTT to a mosquitto on my raspberry pi, 192.168.0.50 port 1883, topic serra/sensors."),
            ("a", "Noted: Mosquitto at 192.168.0.50:1883, topic `serra/sensors`."),
            ("u", "The window must open over 28 gradi and close under 24, there is the hysteresis so it not goes up and down all the time."),
            ("a", "OK: open above 28 °C, close below 24 °C."),
            ("u", "Wifi password of the greenhouse is Pomodoro2026! , is in secrets.h which is not in git"),
            ("a", "It stays in `secrets.h`, which is in `.gitignore`."),
            ("u", "Grazie mille!"),
        ],
        "gold": [
            {"id": "board", "kind": "fact", "must": ["esp32", "platformio"]},
            {"id": "mqtt", "kind": "fact", "must": ["192.168.0.50", "1883"]},
            {"id": "window", "kind": "preference", "must": ["28", "24"]},
        ],
        "noise": ["Grazie mille", "Took 22.19 seconds", "It builds"],
        "secrets": ["Pomodoro2026!"],
    },
]
