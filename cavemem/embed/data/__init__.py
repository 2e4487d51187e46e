"""Data shipped with the [embed] extra: the WordPiece tokenizer.json (Apache-2.0; see NOTICE.txt)."""
