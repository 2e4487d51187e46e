"""Voices set B (see build_voices.py): a Spanish-speaking NestJS developer, an Indian-English ML
engineer, a Japanese-speaking Shopify app developer. Labels written with the conversations, before any run."""

JEST = ("PASS  src/orders/orders.service.spec.ts\nPASS  src/users/users.controller.spec.ts\n"
        "FAIL  src/payments/payments.service.spec.ts\n  ● PaymentsService › refunds › applies the fee once\n"
        "    expect(received).toBe(expected)\n    Expected: 970\n    Received: 940\n"
        "Tests:       1 failed, 57 passed, 58 total\nTime:        6.912 s\n")
DOCKER_PS = ("CONTAINER ID   IMAGE          STATUS          PORTS\n3c1f0e2a9b11   mongo:7.0      Up 2 hours      0.0.0.0:27017->27017/tcp\n"
             "a8d7e6f5c4b3   redis:7.2      Up 2 hours      0.0.0.0:6379->6379/tcp\n")
NVIDIA = ("+-----------------------------------------------------------------------------+\n"
          "| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4     |\n"
          "|   0  NVIDIA A100-SXM4-40GB   On | 00000000:07:00.0 Off |                    0 |\n"
          "| N/A   34C    P0    61W / 400W |  39112MiB / 40960MiB |    100%      Default |\n")
TRAIN_LOG = ("epoch 3 step 1200 loss 0.4121 lr 2.0e-05\nepoch 3 step 1300 loss 0.4098 lr 2.0e-05\n"
             "Traceback (most recent call last):\n  File \"train.py\", line 211, in <module>\n"
             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB\n")
SHOPIFY = ("╭─ success ───────────────────────────────────╮\n│  Preview URL: https://hanami-dev.myshopify.com │\n"
           "╰──────────────────────────────────────────────╯\n14:02:11 │ remix │ GET /app 200 - - 41 ms\n")

VOICES_B = [
    {
        "name": "v-mercado-01-base", "order": 310, "project": "mercado-api", "cwd": "/home/lucia/dev/mercado-api",
        "session": "d1e2f3a4-0010-4ccc-8ddd-000000000310", "start": "2026-11-03T16:00:00",
        "turns": [
            ("u", "hola! the api is nestjs 10 with mongodb 7, we use mongoose for the models. is a marketplace for small producers"),
            ("a", "Nice. Let me check what runs locally.", {"tools": [("Bash", {"command": "docker ps"}, DOCKER_PS)]}),
            ("a", "Mongo 7.0 and Redis 7.2 are up in Docker. What's Redis used for?"),
            ("u", "for the cache of catalog and for bullmq queues. the api listen in port 3100 in local"),
            ("a", "OK: Redis for the catalog cache and BullMQ; the API on port 3100."),
            ("u", "one important thing, the money we save always in cents as integer, never with decimals, we had many problem before with floats"),
            ("a", "Understood — amounts are integer cents everywhere."),
            ("u", "and the code and the comments in english please, even if we talk spanish in the team"),
            ("a", "Will do."),
            ("u", "perfecto, gracias"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["nestjs 10", "mongodb 7"]},
            {"id": "redis", "kind": "fact", "must": ["redis", "bullmq"]},
            {"id": "port", "kind": "fact", "must": ["3100"]},
            {"id": "cents", "kind": "preference", "must": ["cents", "integer"]},
            {"id": "english", "kind": "preference", "must": ["comments in english"]},
        ],
        "noise": ["perfecto, gracias", "Up 2 hours", "Let me check what runs locally", "hola!"],
        "secrets": [],
    },
    {
        "name": "v-mercado-02-fee", "order": 311, "project": "mercado-api", "cwd": "/home/lucia/dev/mercado-api",
        "session": "d1e2f3a4-0011-4ccc-8ddd-000000000311", "start": "2026-11-06T11:30:00", "branch": "fix/refund-fee",
        "turns": [
            ("u", "the refund test is failing, can you look? i think the fee is applied two times"),
            ("a", "", {"tools": [("Bash", {"command": "pnpm jest"}, JEST), ("Grep", {"pattern": "applyFee", "path": "src/payments"}, "src/payments/payments.service.ts:88:    amount = this.applyFee(amount)\nsrc/payments/payments.service.ts:131:    const net = this.applyFee(refund.amount)\n")]}),
            ("a", "You're right: `refund()` calls `applyFee` on an amount that `createRefund` had already reduced by the fee, so the 3% platform fee came off twice (940 instead of 970 cents). I removed the second call and made `applyFee` the only place the fee is computed; all 58 tests pass."),
            ("u", "ok good. other thing, for the payments we were thinking mercadopago or stripe. the producers are mostly in argentina and mexico. what do you recommend?"),
            ("a", "Mercado Pago covers local methods in both countries (cash vouchers, installments), Stripe has the nicer API but weaker local coverage in Argentina."),
            ("u", "yes we go with mercado pago then, stripe maybe later for other countries"),
            ("a", "OK, I'll start a `MercadoPagoProvider` behind the payments interface."),
            ("u", "the sandbox access token is TEST-5521987340129876-110612-a8f1c0d9e2b3 , put in the .env.local only"),
            ("a", "Put it in `.env.local` (git-ignored) as `MP_ACCESS_TOKEN`."),
        ],
        "gold": [
            {"id": "fee", "kind": "bugfix", "must": ["applyfee", "twice"]},
            {"id": "mp", "kind": "decision", "must": ["mercado pago"]},
        ],
        "noise": ["57 passed", "ok good"],
        "secrets": ["TEST-5521987340129876-110612-a8f1c0d9e2b3"],
    },
    {
        "name": "v-mercado-03-search", "order": 312, "project": "mercado-api", "cwd": "/home/lucia/dev/mercado-api",
        "session": "d1e2f3a4-0012-4ccc-8ddd-000000000312", "start": "2026-11-13T15:45:00",
        "turns": [
            ("u", "now the search of products is slow, it use regex in mongo. what options we have?"),
            ("a", "Mongo Atlas Search if you're on Atlas; otherwise a separate engine like Meilisearch or Typesense fed from change streams; or Mongo's own text index, which is fast but has no typo tolerance."),
            ("u", "we are not in atlas, self hosted. typo tolerance is important, users write bad"),
            ("a", "Then Meilisearch or Typesense. Both do typo tolerance; Meilisearch is simpler to run, Typesense has better faceting at scale."),
            ("u", "meilisearch"),
            ("a", "OK: a Meilisearch index `products`, kept in sync from a Mongo change stream worker."),
            ("u", "also we changed the local port of the api, now 3200, because 3100 is used by grafana in the docker compose"),
            ("a", "Updated `PORT` to 3200 in `.env.example` and the compose file."),
            ("u", "ok thanks, hasta mañana"),
        ],
        "gold": [
            {"id": "meili", "kind": "decision", "must": ["meilisearch"]},
            {"id": "port", "kind": "fact", "must": ["3200"]},
        ],
        "updates": [["v-mercado-01-base:port", "v-mercado-03-search:port"]],
        "noise": ["hasta mañana", "users write bad"],
        "secrets": [],
    },
    {
        "name": "v-tessel-01-pipeline", "order": 313, "project": "tessel-ml", "cwd": "/data/rahul/tessel-ml",
        "session": "d1e2f3a4-0013-4ccc-8ddd-000000000313", "start": "2026-11-04T05:30:00",
        "turns": [
            ("u", "Hi, so basically we are doing fine-tuning of a document classifier, the base model is deberta-v3-base, training is happening on one A100 40GB."),
            ("a", "Let me check the GPU.", {"tools": [("Bash", {"command": "nvidia-smi"}, NVIDIA)]}),
            ("a", "The A100 is already at 39 GB used by another process at 100% utilisation."),
            ("u", "Yes yes, that is the other job of my colleague only, it will finish by evening. Kindly do not kill it."),
            ("a", "I won't touch it."),
            ("u", "Data is in /data/tessel/raw as parquet files, around 2.3 million documents, and the labels are in labels.csv. We are doing train/val/test split 80/10/10 with a fixed seed of 17, please keep the same seed always so that numbers are comparable."),
            ("a", "Understood: 80/10/10 with seed 17."),
            ("u", "For experiment tracking we are using mlflow, the server is at http://mlflow.tessel.lan:5000."),
            ("a", "I'll log params, metrics and the checkpoint path to that server."),
            ("u", "Okay, that is all for now, I will revert after lunch."),
        ],
        "gold": [
            {"id": "model", "kind": "fact", "must": ["deberta-v3-base"]},
            {"id": "data", "kind": "fact", "must": ["/data/tessel/raw", "parquet"]},
            {"id": "split", "kind": "preference", "must": ["seed", "17"]},
            {"id": "mlflow", "kind": "fact", "must": ["mlflow.tessel.lan:5000"]},
        ],
        "noise": ["I will revert after lunch", "Kindly do not kill it", "39112MiB", "Let me check the GPU"],
        "secrets": [],
    },
    {
        "name": "v-tessel-02-oom", "order": 314, "project": "tessel-ml", "cwd": "/data/rahul/tessel-ml",
        "session": "d1e2f3a4-0014-4ccc-8ddd-000000000314", "start": "2026-11-05T09:00:00",
        "turns": [
            ("u", "The training crashed again with OOM in epoch 3 itself, even though colleague's job is finished. Please check what is the issue."),
            ("a", "", {"tools": [("Bash", {"command": "tail -5 logs/train.log"}, TRAIN_LOG), ("Read", {"file_path": "/data/rahul/tessel-ml/train.py"}, " 180\t    for batch in loader:\n 181\t        out = model(**batch)\n 182\t        losses.append(out.loss)\n")]}),
            ("a", "The OOM comes from `losses.append(out.loss)`: it keeps every step's loss tensor with its whole autograd graph alive, so memory grows until epoch 3. I changed it to `losses.append(out.loss.item())` and also enabled bf16 autocast; peak memory is flat at 21 GB now."),
            ("u", "Superb, thank you so much. One more thing, max sequence length we are keeping 512 only, do not increase it, the documents are truncated at 512 tokens by design."),
            ("a", "OK, max_length stays at 512."),
            ("u", "Also I have discussed with my lead, we will switch the tracking from mlflow to weights and biases, the company has taken a license. Project name in wandb is tessel-docs."),
            ("a", "I'll replace the mlflow logging with wandb in project `tessel-docs`."),
            ("u", "Thanks a ton."),
        ],
        "gold": [
            {"id": "oom", "kind": "bugfix", "must": ["oom", ".item()"]},
            {"id": "maxlen", "kind": "preference", "must": ["512"]},
            {"id": "wandb", "kind": "decision", "must": ["mlflow", "weights and biases"]},
            {"id": "wandbproj", "kind": "fact", "must": ["tessel-docs"]},
        ],
        "updates": [["v-tessel-01-pipeline:mlflow", "v-tessel-02-oom:wandb"]],
        "noise": ["Thanks a ton", "Superb", "epoch 3 step 1300"],
        "secrets": [],
    },
    {
        "name": "v-tessel-03-eval", "order": 315, "project": "tessel-ml", "cwd": "/data/rahul/tessel-ml",
        "session": "d1e2f3a4-0015-4ccc-8ddd-000000000315", "start": "2026-11-10T06:15:00",
        "turns": [
            ("u", "Good morning. Today we need the eval script. Which metric we should report, accuracy or macro F1? The classes are very imbalanced, like 60% is invoices."),
            ("a", "With that imbalance accuracy mostly measures the invoice class. Macro F1 weights every class equally, so it is the better headline; report accuracy beside it."),
            ("u", "Correct, macro F1 is the main metric from now, accuracy only as secondary."),
            ("a", "OK."),
            ("u", "And the wandb api key is 8c1f4e2a9d7b6c3e5f0a1b2c3d4e5f6a7b8c9d0e, I am sharing so you can test, but don't write it in any file."),
            ("a", "I'll only use it from the `WANDB_API_KEY` environment variable in this shell."),
            ("u", "One more change, we are increasing batch size to 32 from 16, since the memory issue is fixed."),
            ("a", "Set `per_device_train_batch_size=32`."),
            ("u", "ok cool"),
        ],
        "gold": [
            {"id": "metric", "kind": "decision", "must": ["macro f1", "main metric"]},
            {"id": "batch", "kind": "fact", "must": ["batch size", "32"]},
        ],
        "noise": ["ok cool", "Good morning", "60% is invoices"],
        "secrets": ["8c1f4e2a9d7b6c3e5f0a1b2c3d4e5f6a7b8c9d0e"],
    },
    {
        "name": "v-hanami-01-app", "order": 316, "project": "hanami-shop", "cwd": "/Users/yuki/work/hanami-shop",
        "session": "d1e2f3a4-0016-4ccc-8ddd-000000000316", "start": "2026-11-05T01:10:00", "v2": True,
        "turns": [
            ("u", "こんにちは. This is Shopify app, made with Remix template. It shows gift wrapping option in the cart. Database is Prisma with SQLite in dev, and Postgres in production."),
            ("a", "Got it. Starting the dev server.", {"tools": [("Bash", {"command": "shopify app dev"}, SHOPIFY)]}),
            ("a", "The dev store hanami-dev.myshopify.com is serving the app."),
            ("u", "Thank you. Please write UI with Polaris components only, we do not write custom CSS, because of Shopify review."),
            ("a", "Understood — Polaris only, no custom CSS."),
            ("u", "The wrapping price is 300 yen fixed, and it is added as a separate line item, not changing the product price."),
            ("a", "OK, a separate 300 JPY line item."),
            ("u", "I am sorry my English is not good. Also, translations: Japanese is the default language, English second."),
            ("a", "Your English is fine. I'll set up i18n with `ja` as default and `en` as the fallback second."),
            ("u", "ありがとう"),
        ],
        "gold": [
            {"id": "stack", "kind": "fact", "must": ["shopify app", "remix"]},
            {"id": "db", "kind": "fact", "must": ["prisma", "sqlite", "postgres"]},
            {"id": "polaris", "kind": "preference", "must": ["polaris", "custom css"]},
            {"id": "price", "kind": "fact", "must": ["300 yen", "line item"]},
            {"id": "i18n", "kind": "preference", "must": ["japanese is the default"]},
        ],
        "noise": ["ありがとう", "my English is not good", "GET /app 200", "Starting the dev server"],
        "secrets": [],
    },
    {
        "name": "v-hanami-02-webhook", "order": 317, "project": "hanami-shop", "cwd": "/Users/yuki/work/hanami-shop",
        "session": "d1e2f3a4-0017-4ccc-8ddd-000000000317", "start": "2026-11-08T02:00:00", "v2": True,
        "turns": [
            ("u", "Problem: when a customer removes the gift wrap, the 300 yen line stays in the order sometimes."),
            ("a", "", {"thinking": "Race between cart update and webhook? Check the cart transform.",
                       "tools": [("Grep", {"pattern": "giftWrap", "path": "app"}, "app/routes/api.cart.tsx:19:  if (giftWrap) lines.push(WRAP_LINE)\n")]}),
            ("a", "The wrap line stays because the remove handler only deletes the line when the cart attribute `gift_wrap` is exactly \"false\", but the theme sends an empty string when unchecked. I now treat any value other than \"true\" as off and delete the wrap line; removing the wrap works in the dev store."),
            ("u", "すごい, works. Next question: for the admin settings, should we use app metafields or our own Postgres table?"),
            ("a", "Metafields keep the settings with the shop and need no migration; a table is easier to query across shops. For per-shop settings, metafields are the usual choice."),
            ("u", "ok, metafields for the settings"),
            ("a", "I'll store them under the `hanami` namespace."),
            ("u", "And the wrap price now 350 yen, the paper cost increased."),
            ("a", "Updated the price to 350 JPY."),
        ],
        "gold": [
            {"id": "wrapbug", "kind": "bugfix", "must": ["wrap line", "empty string"]},
            {"id": "metafields", "kind": "decision", "must": ["metafields", "settings"]},
            {"id": "price", "kind": "fact", "must": ["350"]},
        ],
        "updates": [["v-hanami-01-app:price", "v-hanami-02-webhook:price"]],
        "noise": ["すごい, works"],
        "secrets": [],
    },
]
